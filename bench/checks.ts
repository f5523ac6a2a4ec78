import { readSettings } from '../config/settings.js';
import { generateKeyPairSync } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import { createDnsLookup } from '../clients/dns/create-dns-lookup.js';
import type { DnsLookup, DnsRecordType } from '../clients/dns/dns-types.js';
import type { FullCheckContext } from '../resolvers/checks/full-check-context.js';
import type { SpfLookaheadFigures } from './checks-spf.js';
import { startTestDnsServer, type ZoneRecord } from '../test/support/dns-server.js';
import { rdapDomain, startTestRdapServer } from '../test/support/rdap-server.js';
import { dnsblTestPoints } from '../test/support/dnsbl-test-points.js';

/**
 * npm run bench:checks — check-deliverability against the local DNS server holding every answer
 * back by 30 ms (RDAP from the local RDAP server: no network), and the SPF look-ahead bench of
 * bench/checks-spf.ts. Figures:
 * (a) wall time ÷ (depth of the longest chain of dependent lookups × round trip), target ≤ 1.5;
 * (b) DNS questions asked ÷ distinct questions, target 1.0;
 * (c) SPF with an ip over eight includes plus a and mx, target ≤ 4 round trips.
 */
const RTT_MS = 30;
const DOMAIN = 'grade.example';
const RUNS = 5;

/**
 * The longest chain of lookups that wait on each other for this fixture, read off its records:
 * - SPF: TXT grade.example -> TXT _spf.esp.example (include) -> TXT _netblocks.esp.example (include) = 3;
 * - blacklists: MX grade.example -> A mx1/mx2.grade.example -> <reversed address>.<zone> A on 26 IP lists = 3;
 * - DMARC: TXT _dmarc.grade.example -> TXT grade.example._report._dmarc.esp.example (rua at another domain) = 2;
 * - MX part: MX -> A/AAAA of the hosts = 2 (the same MX and A questions as the blacklists, asked once);
 * - DKIM: 26 selectors, _domainkey and a random selector (the wildcard probe), all at once = 1;
 *   domain lists (6 zones) and their RFC 5782 test points = 1;
 * - the IP lists' test points go out beside the MX hosts' addresses (level 2), not on the chain.
 * Domain age is RDAP over HTTP, not DNS, and runs alongside.
 */
export const DELIVERABILITY_CHAIN_DEPTH = 3;

const txt = (name: string, text: string): ZoneRecord => ({ name, type: 'TXT', data: [text] });

function zone(): ZoneRecord[] {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  return [
    txt(DOMAIN, 'v=spf1 include:_spf.esp.example ~all'),
    txt('_spf.esp.example', 'v=spf1 include:_netblocks.esp.example ~all'),
    txt('_netblocks.esp.example', 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/48 -all'),
    txt(`google._domainkey.${DOMAIN}`, `v=DKIM1; k=rsa; p=${key}`),
    txt(`_dmarc.${DOMAIN}`, 'v=DMARC1; p=reject; rua=mailto:reports@esp.example'),
    txt(`${DOMAIN}._report._dmarc.esp.example`, 'v=DMARC1'),
    { name: DOMAIN, type: 'MX', data: { preference: 10, exchange: `mx1.${DOMAIN}` } },
    { name: DOMAIN, type: 'MX', data: { preference: 20, exchange: `mx2.${DOMAIN}` } },
    { name: `mx1.${DOMAIN}`, type: 'A', data: '192.0.2.11' },
    { name: `mx2.${DOMAIN}`, type: 'A', data: '192.0.2.12' },
    // The blocklists' RFC 5782 test points, so the lists read as alive.
    ...dnsblTestPoints(),
  ];
}

/** Records, per distinct question, when a check first asked it, to cross-check the stated depth. */
function timingLookup(inner: DnsLookup, started: number, firstAsked: Map<string, number>): DnsLookup {
  return {
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

export interface DeliverabilityFigures {
  readonly rtt_ms: number;
  readonly concurrency: number;
  readonly chain_depth: number;
  /** Levels of dependent questions seen in the run (a question asked during round trip k is level k+1). */
  readonly observed_levels: number;
  /** Distinct questions in the busiest level: above the concurrency cap it needs more than one round trip. */
  readonly widest_level: number;
  /** Median over the runs. */
  readonly wall_ms: number;
  readonly wall_per_ideal: number;
  readonly questions: number;
  readonly distinct_questions: number;
  readonly questions_per_distinct: number;
  readonly grade: string | null;
  readonly score: number | null;
}

export interface ChecksBenchFigures {
  readonly deliverability: readonly DeliverabilityFigures[];
  /** null when bench/checks-spf.ts is not there. */
  readonly spf_lookahead: SpfLookaheadFigures | null;
}

async function benchDeliverability(concurrencies: readonly number[]): Promise<DeliverabilityFigures[]> {
  const dns = await startTestDnsServer({ records: zone(), delayMs: RTT_MS });
  const rdap = await startTestRdapServer({
    tlds: ['example'],
    domains: { [DOMAIN]: rdapDomain(DOMAIN, 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2027-09-01T12:00:00Z') },
  });
  try {
    const registration = readSettings({ RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl }).registration;
    const run = async (concurrency: number) => {
      const before = dns.questions.length;
      const firstAsked = new Map<string, number>();
      const started = performance.now();
      const engine = createDnsLookup({ servers: [dns.server], timeoutMs: 2000, tries: 1, concurrency });
      const ctx: FullCheckContext = {
        dns: timingLookup(engine, started, firstAsked),
        https: { get: () => Promise.reject(new Error('the grade fetches nothing over HTTPS')) },
        now: () => new Date('2026-09-26T00:00:00Z'),
        blacklist: { spamhausDqsKey: null },
        registration,
        googleTenancy: { probe: () => Promise.resolve('unknown') },
      };
      const answer = await checkDeliverability({ domain: DOMAIN }, ctx);
      const wall = performance.now() - started;
      const asked = dns.questions.slice(before).map((q) => `${q.name.toLowerCase()}|${q.type}`);
      const perLevel = new Map<number, number>();
      for (const t of firstAsked.values()) perLevel.set(Math.floor(t / RTT_MS) + 1, (perLevel.get(Math.floor(t / RTT_MS) + 1) ?? 0) + 1);
      const levels = Math.max(...perLevel.keys());
      return { wall, asked: asked.length, distinct: new Set(asked).size, levels, widest: Math.max(...perLevel.values()), answer };
    };
    const figures: DeliverabilityFigures[] = [];
    for (const concurrency of concurrencies) {
      await run(concurrency); // warm-up: JIT, sockets, the RDAP bootstrap file
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await run(concurrency));
      runs.sort((x, y) => x.wall - y.wall);
      const median = runs[Math.floor(RUNS / 2)]!;
      figures.push({
        rtt_ms: RTT_MS,
        concurrency,
        chain_depth: DELIVERABILITY_CHAIN_DEPTH,
        observed_levels: Math.max(...runs.map((r) => r.levels)),
        widest_level: median.widest,
        wall_ms: Math.round(median.wall),
        wall_per_ideal: Math.round((median.wall / (DELIVERABILITY_CHAIN_DEPTH * RTT_MS)) * 100) / 100,
        questions: median.asked,
        distinct_questions: median.distinct,
        questions_per_distinct: Math.round((median.asked / median.distinct) * 100) / 100,
        grade: median.answer.grade,
        score: median.answer.score,
      });
    }
    return figures;
  } finally {
    await Promise.all([dns.close(), rdap.close()]);
  }
}

export async function benchChecks(): Promise<ChecksBenchFigures> {
  // The default DNS_CONCURRENCY (32), and a cap high enough that only the dependency chain counts.
  const deliverability = await benchDeliverability([32, 64]);
  const spf = await import('./checks-spf.js').catch(() => null);
  const spfLookahead = spf ? await spf.benchSpfLookahead() : null;
  return { deliverability, spf_lookahead: spfLookahead };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await benchChecks();
  const rows: [string, string, string][] = [];
  for (const d of f.deliverability) {
    rows.push([
      `(a) check-deliverability, DNS_CONCURRENCY=${d.concurrency}`,
      `${d.wall_ms} ms / (${d.chain_depth} x ${d.rtt_ms} ms) = ${d.wall_per_ideal.toFixed(2)} (levels seen ${d.observed_levels}, widest ${d.widest_level} questions)`,
      '<= 1.5',
    ]);
    rows.push([
      `(b) questions, DNS_CONCURRENCY=${d.concurrency}`,
      `${d.questions} asked / ${d.distinct_questions} distinct = ${d.questions_per_distinct.toFixed(2)}`,
      '1.0',
    ]);
  }
  if (f.spf_lookahead) {
    const s = f.spf_lookahead;
    rows.push([
      '(c) SPF ip, 8 includes + a + mx',
      `${s.wallMs} ms = ${s.roundTrips} round trips (term by term: ${s.sequentialRoundTrips}); ${s.questionsAsked}/${s.distinctQuestions} questions; ${s.result}`,
      '<= 4',
    ]);
  } else {
    rows.push(['(c) SPF look-ahead', 'skipped: bench/checks-spf.ts is not there', '<= 4']);
  }
  const width = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length), i === 0 ? 6 : 6));
  console.log(`Checks bench: every DNS answer delayed by ${RTT_MS} ms, median of ${RUNS} runs, RDAP from a local server\n`);
  console.log(`${'figure'.padEnd(width[0]!)}  ${'measured'.padEnd(width[1]!)}  target`);
  for (const [name, value, target] of rows) console.log(`${name.padEnd(width[0]!)}  ${value.padEnd(width[1]!)}  ${target}`);
  for (const d of f.deliverability.filter((x) => x.widest_level > x.concurrency)) {
    console.log(
      `\nAt DNS_CONCURRENCY=${d.concurrency} the widest level (${d.widest_level} questions: the blacklist queries of both MX addresses) does not fit in one round trip,` +
        ` so the floor is ${Math.ceil(d.widest_level / d.concurrency) + d.chain_depth - 1} round trips rather than ${d.chain_depth}.`,
    );
  }
}
