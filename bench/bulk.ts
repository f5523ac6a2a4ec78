import { pathToFileURL } from 'node:url';
import type { CheckContext } from '../resolvers/checks/check-context.js';
import { createDnsLookup } from '../clients/dns/create-dns-lookup.js';
import { segmentEsp } from '../resolvers/checks/segment-esp/segment-esp.js';
import { verifyEmail } from '../resolvers/checks/verify-email/verify-email.js';
import { VERIFY_EMAIL_LIMIT } from '../resolvers/checks/bulk-input.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../test/support/dns-server.js';

/**
 * npm run bench:bulk — the bulk checks against the local DNS server with a fixed delay per answer:
 * verify-email on 2,000 addresses across 400 domains, segment-esp on 1,000 domains. Per run:
 * - questions ÷ distinct questions (target 1.0: each (name, type) asked once);
 * - wall ÷ (distinct ÷ concurrency × round trip) (target ≤ 1.5: the cap is kept busy);
 * - peak memory: RSS and heap growth over the run, sampled every 5 ms;
 * - the longest event-loop stall: the longest time between two turns of the loop during the run,
 *   in wall time and in CPU time (the CPU figure holds on a loaded machine, where the wall figure
 *   also counts time the process was not scheduled). verify-email on 5,000 addresses (the limit,
 *   700 domains) is run for it: target ≤ 100 ms (issue 32, item 2).
 */
export interface BulkBenchRun {
  readonly name: string;
  readonly items: number;
  readonly questions: number;
  readonly distinct_questions: number;
  readonly questions_per_distinct: number;
  readonly wall_ms: number;
  readonly ideal_ms: number;
  readonly wall_per_ideal: number;
  readonly peak_rss_mb: number;
  readonly peak_heap_delta_mb: number;
  /** The longest time between two turns of the event loop during the run (wall clock). */
  readonly longest_stall_ms: number;
  /** The most CPU time the process spent between two turns of the event loop during the run. */
  readonly longest_stall_cpu_ms: number;
}

export interface BulkBenchResult {
  readonly delay_ms: number;
  readonly concurrency: number;
  readonly runs: readonly BulkBenchRun[];
}

const mx = (name: string, exchange: string, preference = 10): ZoneRecord => ({ name, type: 'MX', data: { preference, exchange } });

/** 400 domains: 300 MX on 20 shared hosts, 50 implicit MX (A only), 50 NXDOMAIN; 5 addresses each. */
function verifyFixture(): { records: ZoneRecord[]; emails: string[] } {
  const records: ZoneRecord[] = [];
  for (let i = 0; i < 400; i += 1) {
    if (i < 300) records.push(mx(`d${i}.mail.bench`, `mx${i % 20}.hosts.bench`));
    else if (i < 350) records.push({ name: `d${i}.mail.bench`, type: 'A', data: '192.0.2.9' });
  }
  for (let h = 0; h < 20; h += 1) records.push({ name: `mx${h}.hosts.bench`, type: 'A', data: `192.0.2.${100 + h}` });
  const emails = Array.from({ length: 2000 }, (_, n) => `user${Math.floor(n / 400)}@d${n % 400}.mail.bench`);
  return { records, emails };
}

/** 5,000 addresses (the limit) on 700 domains whose MX name 7 shared hosts. */
function verifyLimitFixture(): { records: ZoneRecord[]; emails: string[] } {
  const records: ZoneRecord[] = [];
  for (let i = 0; i < 700; i += 1) records.push(mx(`l${i}.limit.bench`, `mx${i % 7}.limit-hosts.bench`));
  for (let h = 0; h < 7; h += 1) records.push({ name: `mx${h}.limit-hosts.bench`, type: 'A', data: `192.0.2.${50 + h}` });
  const emails = Array.from({ length: VERIFY_EMAIL_LIMIT }, (_, n) => `first.last${n}+tag@l${n % 700}.limit.bench`);
  return { records, emails };
}

/** 1,000 domains: Google, Microsoft, gateways (with SPF), other, null MX and NXDOMAIN. */
function segmentFixture(): { records: ZoneRecord[]; domains: string[] } {
  const records: ZoneRecord[] = [];
  const domains: string[] = [];
  for (let i = 0; i < 1000; i += 1) {
    const d = `s${i}.seg.bench`;
    domains.push(d);
    switch (i % 6) {
      case 0:
        records.push(mx(d, 'aspmx.l.google.com', 1));
        break;
      case 1:
        records.push(mx(d, `s${i}-seg-bench.mail.protection.outlook.com`, 0));
        break;
      case 2:
        records.push(mx(d, `mx0a-${i}.pphosted.com`));
        records.push({ name: d, type: 'TXT', data: ['v=spf1 include:spf.protection.outlook.com -all'] });
        break;
      case 3:
        records.push(mx(d, `mail.${d}`));
        break;
      case 4:
        records.push(mx(d, '.', 0));
        break;
      default:
        break; // NXDOMAIN
    }
  }
  return { records, domains };
}

async function measure(
  name: string,
  items: number,
  server: TestDnsServer,
  concurrency: number,
  delayMs: number,
  run: (ctx: CheckContext) => Promise<unknown>,
): Promise<BulkBenchRun> {
  const dns = createDnsLookup({ servers: [server.server], timeoutMs: 5000, tries: 1, concurrency });
  const ctx: CheckContext = { dns, https: { get: () => Promise.reject(new Error('no HTTPS in the bulk bench')) }, now: () => new Date() };
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  // One turn of the loop after another: the gap between two is how long the loop was held.
  let turning = true;
  let lastTurn = performance.now();
  let lastCpu = process.cpuUsage();
  let longestStall = 0;
  let longestStallCpu = 0;
  const turn = (): void => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    longestStall = Math.max(longestStall, now - lastTurn);
    longestStallCpu = Math.max(longestStallCpu, (cpu.user + cpu.system) / 1000);
    lastTurn = now;
    lastCpu = process.cpuUsage();
    if (turning) setImmediate(turn);
  };
  setImmediate(turn);
  const askedBefore = server.questions.length;
  const started = performance.now();
  await run(ctx);
  const wall = performance.now() - started;
  clearInterval(sampler);
  turning = false;
  const asked = server.questions.slice(askedBefore);
  const distinct = new Set(asked.map((q) => `${q.name}|${q.type}`)).size;
  const ideal = (distinct / concurrency) * delayMs;
  const round = (n: number, places = 2): number => Math.round(n * 10 ** places) / 10 ** places;
  return {
    name,
    items,
    questions: asked.length,
    distinct_questions: distinct,
    questions_per_distinct: round(asked.length / distinct),
    wall_ms: Math.round(wall),
    ideal_ms: Math.round(ideal),
    wall_per_ideal: round(wall / ideal),
    peak_rss_mb: round(peakRss / 2 ** 20, 1),
    peak_heap_delta_mb: round((peakHeap - before.heapUsed) / 2 ** 20, 1),
    longest_stall_ms: round(longestStall, 1),
    longest_stall_cpu_ms: round(longestStallCpu, 1),
  };
}

/** The run whose longest stall the bench reports against its target. */
export const VERIFY_LIMIT_RUN = 'verify-email (5,000 addresses, 700 domains)';

export async function benchBulk(options: { readonly delayMs?: number; readonly concurrency?: number } = {}): Promise<BulkBenchResult> {
  const delayMs = options.delayMs ?? 20;
  const concurrency = options.concurrency ?? 32;
  const verify = verifyFixture();
  const limit = verifyLimitFixture();
  const segment = segmentFixture();
  const server = await startTestDnsServer({ records: [...verify.records, ...limit.records, ...segment.records], delayMs });
  try {
    // One small untimed pass first, so the figures are not JIT compilation and socket set-up.
    await measure('warm-up', 100, server, concurrency, delayMs, async (ctx) => {
      await verifyEmail({ emails: verify.emails.slice(0, 100) }, ctx);
      await segmentEsp({ domains: segment.domains.slice(0, 100) }, ctx);
    });
    const runs = [
      await measure('verify-email (2,000 addresses, 400 domains)', verify.emails.length, server, concurrency, delayMs, (ctx) =>
        verifyEmail({ emails: verify.emails }, ctx),
      ),
      await measure(VERIFY_LIMIT_RUN, limit.emails.length, server, concurrency, delayMs, (ctx) => verifyEmail({ emails: limit.emails }, ctx)),
      await measure('segment-esp (1,000 domains)', segment.domains.length, server, concurrency, delayMs, (ctx) =>
        segmentEsp({ domains: segment.domains }, ctx),
      ),
    ];
    return { delay_ms: delayMs, concurrency, runs };
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchBulk();
  console.log(`bulk bench: ${result.delay_ms} ms per answer, ${result.concurrency} questions in flight`);
  for (const r of result.runs) {
    console.log(`${r.name}
  questions ${r.questions} / distinct ${r.distinct_questions} = ${r.questions_per_distinct} (target 1.0)
  wall ${r.wall_ms} ms / ideal ${r.ideal_ms} ms (distinct / concurrency x rtt) = ${r.wall_per_ideal} (target <= 1.5)
  peak RSS ${r.peak_rss_mb} MB, heap growth ${r.peak_heap_delta_mb} MB
  longest event-loop stall ${r.longest_stall_ms} ms (${r.longest_stall_cpu_ms} ms CPU)`);
  }
}
