import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readSettings, serviceConfigFromEnv } from '../config/settings.js';
import { openDatabase, type OpenedDatabase } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createServices } from '../server/create-services.js';
import { probeDnsblLiveness } from '../jobs/probe-dnsbl-liveness.js';
import type { JobEnvironment } from '../jobs/job-types.js';
import type { Services } from '../resolvers/context.js';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import type { DnsLookup, DnsRecordType } from '../clients/dns/dns-types.js';
import type { FullCheckContext } from '../resolvers/checks/full-check-context.js';
import { decodedKeyCache } from '../resolvers/checks/dkim/dkim-public-key.js';
import { startTestDnsServer } from '../test/support/dns-server.js';
import { rdapDomain, startTestRdapServer } from '../test/support/rdap-server.js';
import { createTestDatabase, usingPostgres } from '../test/support/test-database.js';
import { fixtureZone } from '../test/support/fixture-zone.js';

/**
 * bench/cost.ts — what one grade costs (check-deliverability of good.test, the demo zone's domain),
 * through the service's own wiring (server/create-services.ts) on the default settings, today's way
 * and the new way side by side in the same run:
 * - before: no background probe (every request asks each blocklist's two RFC 5782 test points, 64
 *   questions) and every DKIM key parsed anew (the decoded-key cache emptied before each check);
 * - after: the probe job has run on another "instance" sharing the database, so this instance reads
 *   the lists' liveness from the dnsbl_liveness table, and DKIM keys seen before are not parsed again.
 * Figures: DNS questions per check; wall time ÷ (longest chain of dependent lookups × round trip) at
 * DNS_CONCURRENCY's default, each answer held back RTT_MS; CPU per check (process.cpuUsage over RUNS
 * checks, the DNS and RDAP servers in a child process so their CPU is not counted), rounds alternating
 * the two modes so the machine's drift hits both.
 */
const DOMAIN = 'good.test';
const RTT_MS = 30;
const RUNS = 25;
/** Rounds of RUNS checks per mode, in the order before, after, after, before, ...: drift hits both alike. */
const ROUNDS = 8;

/**
 * The longest chain of lookups that wait on each other for good.test:
 * - blacklists: MX good.test -> A mx.good.test -> <reversed address>.<zone> A on 26 IP lists = 3;
 * - SPF: TXT good.test -> TXT _spf.mailer.test (include) and MX good.test -> A mx.good.test (mx) = 3;
 * - DMARC: TXT _dmarc.good.test = 1 (its rua is at the same domain); DKIM: the selector scan = 1.
 * Domain age is RDAP over HTTP and runs alongside.
 */
export const GOOD_TEST_CHAIN_DEPTH = 3;

export interface CostModeFigures {
  readonly questions: number;
  /** Median over RUNS checks, against the delayed server. */
  readonly wall_ms: number;
  readonly wall_per_ideal: number;
  /** Levels of dependent questions seen (a question first asked during round trip k is level k+1). */
  readonly observed_levels: number;
  readonly cpu_ms_per_check: number;
  readonly grade: string | null;
}

export interface CostFigures {
  readonly domain: string;
  readonly rtt_ms: number;
  readonly concurrency: number;
  readonly chain_depth: number;
  readonly runs: number;
  readonly before: CostModeFigures;
  readonly after: CostModeFigures;
  readonly questions_after_per_before: number;
  /** The median over the rounds of after ÷ before, each pair measured back to back. */
  readonly cpu_after_per_before: number;
  readonly cpu_rounds: readonly { readonly before: number; readonly after: number }[];
  /** Lists the probe found alive / dead / unanswered. */
  readonly probe: { readonly alive: number; readonly dead: number; readonly unanswered: number };
}

type Mode = 'before' | 'after';

/** Records, per distinct question, when it was first asked, to count the levels of the chain. */
function timingLookup(inner: DnsLookup, started: number, firstAsked: Map<string, number>): DnsLookup {
  return {
    ...inner,
    lookup<T extends DnsRecordType>(name: string, type: T) {
      const key = `${name.toLowerCase()}|${type}`;
      if (!firstAsked.has(key)) firstAsked.set(key, performance.now() - started);
      return inner.lookup(name, type);
    },
    get questionsAsked() {
      return inner.questionsAsked;
    },
  };
}

function contextFor(services: Services, mode: Mode): FullCheckContext {
  const ctx = services.createCheckContext({});
  if (mode === 'after') return ctx;
  decodedKeyCache.clear();
  const { dnsblLiveness: _shared, ...today } = ctx;
  return today;
}

async function openSharedDatabase(): Promise<{ database: OpenedDatabase; second: OpenedDatabase | null; drop: () => Promise<void> }> {
  // PGlite: a new in-memory database (the tests' template needs vitest); PostgreSQL: a fresh database.
  const test = usingPostgres ? await createTestDatabase() : { databaseUrl: undefined, drop: async () => {} };
  const database = await openDatabase({ databaseUrl: test.databaseUrl, dataDir: 'memory' });
  await migrateToLatest(database.db);
  // PostgreSQL: the probing instance has a connection of its own. PGlite serves one process: both share it.
  const second = test.databaseUrl ? await openDatabase({ databaseUrl: test.databaseUrl, dataDir: 'memory' }) : null;
  return {
    database,
    second,
    drop: async () => {
      await second?.close();
      await database.close();
      await test.drop();
    },
  };
}

export async function benchCost(): Promise<CostFigures> {
  const child = await serveInChild();
  const { database, second, drop } = await openSharedDatabase();
  try {
    const env = { DNS_SERVERS: `127.0.0.1:${child.dnsPort}`, RDAP_BOOTSTRAP_URL: child.bootstrapUrl, LOG_LEVEL: 'silent' };
    const settings = readSettings(env);
    const overrides = { env, googleTenancy: { probe: async () => 'unknown' as const } };
    // The instance that probes (its jobs run), and the one that serves the checks: they share the database.
    const prober = createServices(second ?? database, serviceConfigFromEnv(env), settings, overrides);
    const server = createServices(database, serviceConfigFromEnv(env), settings, overrides);
    await probeDnsblLiveness({}, { db: (second ?? database).db, services: prober } as unknown as JobEnvironment, { id: 'bench', attempt: 1 });
    const probes = await database.db.selectFrom('dnsbl_liveness').select('alive').execute();

    const one = async (mode: Mode) => {
      const firstAsked = new Map<string, number>();
      const started = performance.now();
      const ctx = contextFor(server, mode);
      const answer = await checkDeliverability({ domain: DOMAIN }, { ...ctx, dns: timingLookup(ctx.dns, started, firstAsked) });
      const wall = performance.now() - started;
      const levels = Math.max(...[...firstAsked.values()].map((t) => Math.floor(t / RTT_MS) + 1));
      return { wall, questions: ctx.dns.questionsAsked, levels, grade: answer.grade };
    };
    const cpuOf = async (mode: Mode) => {
      const start = process.cpuUsage();
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await one(mode));
      const used = process.cpuUsage(start);
      return { cpuMs: (used.user + used.system) / 1000 / RUNS, runs };
    };
    // Warm-up: JIT of both paths, sockets, the RDAP bootstrap file (a first round without it ran 2-3x slower).
    for (let i = 0; i < 10; i += 1) {
      await one('before');
      await one('after');
    }
    const collected: Record<Mode, { cpu: number[]; runs: Awaited<ReturnType<typeof one>>[] }> = { before: { cpu: [], runs: [] }, after: { cpu: [], runs: [] } };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const r = await cpuOf(mode);
        collected[mode].cpu.push(r.cpuMs);
        collected[mode].runs.push(...r.runs);
      }
    }
    const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const round2 = (n: number) => Math.round(n * 100) / 100;
    const figures = (mode: Mode): CostModeFigures => {
      const { cpu, runs } = collected[mode];
      const wall = median(runs.map((r) => r.wall));
      return {
        questions: median(runs.map((r) => r.questions)),
        wall_ms: round2(wall),
        wall_per_ideal: round2(wall / (GOOD_TEST_CHAIN_DEPTH * RTT_MS)),
        observed_levels: Math.max(...runs.map((r) => r.levels)),
        cpu_ms_per_check: round2(median(cpu)),
        grade: runs[0]!.grade,
      };
    };
    const before = figures('before');
    const after = figures('after');
    return {
      domain: DOMAIN,
      rtt_ms: RTT_MS,
      concurrency: settings.dns.concurrency,
      chain_depth: GOOD_TEST_CHAIN_DEPTH,
      runs: RUNS * ROUNDS,
      before,
      after,
      questions_after_per_before: round2(after.questions / before.questions),
      // Per round, after ÷ the before measured next to it; the median of those.
      cpu_after_per_before: round2(median(collected.after.cpu.map((a, i) => a / collected.before.cpu[i]!))),
      cpu_rounds: collected.before.cpu.map((b, i) => ({ before: round2(b), after: round2(collected.after.cpu[i]!) })),
      probe: {
        alive: probes.filter((p) => p.alive === true).length,
        dead: probes.filter((p) => p.alive === false).length,
        unanswered: probes.filter((p) => p.alive === null).length,
      },
    };
  } finally {
    child.close();
    await drop();
  }
}

/** The demo zone's DNS (each answer held back RTT_MS) and an RDAP server, in a child process (this file with --serve). */
export async function serveInChild(): Promise<{ dnsPort: number; bootstrapUrl: string; close(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'] });
  const ready = await new Promise<{ dnsPort: number; bootstrapUrl: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { dnsPort: number; bootstrapUrl: string }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the DNS and RDAP server process exited (${code})`)));
  });
  return { ...ready, close: () => child.kill() };
}

if (process.argv.includes('--serve')) {
  const dns = await startTestDnsServer({ records: fixtureZone, delayMs: RTT_MS });
  const rdap = await startTestRdapServer({
    tlds: ['test'],
    domains: { [DOMAIN]: rdapDomain(DOMAIN, 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2027-09-01T12:00:00Z') },
  });
  process.send?.({ dnsPort: dns.port, bootstrapUrl: rdap.bootstrapUrl });
  process.on('disconnect', () => void Promise.all([dns.close(), rdap.close()]).then(() => process.exit(0)));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await benchCost();
  console.log(JSON.stringify(f, null, 1));
}
