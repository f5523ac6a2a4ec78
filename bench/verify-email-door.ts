import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startTestDnsServer } from '../test/support/dns-server.js';
import { fixtureZone } from '../test/support/fixture-zone.js';
import { serviceConfigFromEnv } from '../config/settings.js';
import { startService } from '../server/start-service.js';
import { configureLog } from '../observability/log.js';
import { watchLoop } from './loop-watch.js';

/**
 * The event loop while the public /graphql door answers a keyless verifyEmail of 5,000 addresses
 * (the limit; about 1.7 MB of JSON) from the local test DNS server: the longest gap between two
 * turns of the loop in wall time and in the main thread's CPU, and perf_hooks' event-loop delay
 * histogram (its max and p99). For comparison, what writing that answer's text in one go costs
 * (JSON.stringify of the parsed answer, the best of 5): the single stretch the door made before it
 * wrote large answers in turns (server/stringify-in-turns.ts). Target: no gap over 100 ms of CPU.
 */
export interface VerifyEmailDoorFigures {
  readonly addresses: number;
  readonly answer_bytes: number;
  readonly wall_ms: number;
  readonly longest_gap_ms: number;
  readonly longest_gap_cpu_ms: number | null;
  readonly delay_max_ms: number;
  readonly delay_p99_ms: number;
  readonly one_go_stringify_ms: number;
}

const QUERY = `query ($e: [String!]!) { verifyEmail(emails: $e) { ... on VerifyEmailAnswer { status summary catchAllNote counts { valid invalid unknown disposable role } results { email valid syntaxValid reason detail domain domainUnicode mx { exchange preference } implicitMx nullMx disposable role mxIssues { severity code message } } } } }`;

export async function benchVerifyEmailDoor(count = 5000): Promise<VerifyEmailDoorFigures> {
  const dns = await startTestDnsServer({ records: fixtureZone });
  configureLog({ silent: true });
  const env = {
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory',
    HOST: '127.0.0.1',
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '3000',
    DNS_TRIES: '1',
    LOG_REQUESTS: '0',
    RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
    WHOIS_SERVER: '127.0.0.1:9',
  };
  const service = await startService(
    { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0 },
    { env, rateLimits: { public: 100_000 }, googleTenancy: { probe: async () => 'unknown' as const } },
  );
  const domains = ['good.test', 'nomx.test', 'gmail.com', ...Array.from({ length: 697 }, (_, i) => `d${i}.unknown.test`)];
  const emails = Array.from({ length: count }, (_, i) => `person.${i}@${domains[i % domains.length]}`);
  const ask = async () => {
    const response = await fetch(`${service.publicUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY, variables: { e: emails } }),
    });
    return response.text();
  };
  try {
    await ask();
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const watch = watchLoop();
    const started = performance.now();
    const text = await ask();
    const wall = performance.now() - started;
    const gap = watch();
    histogram.disable();
    const parsed: unknown = JSON.parse(text);
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      JSON.stringify(parsed);
      best = Math.min(best, performance.now() - t);
    }
    return {
      addresses: count,
      answer_bytes: Buffer.byteLength(text),
      wall_ms: Math.round(wall),
      longest_gap_ms: Math.round(gap.wall * 10) / 10,
      longest_gap_cpu_ms: gap.cpu,
      delay_max_ms: Math.round(histogram.max / 1e5) / 10,
      delay_p99_ms: Math.round(histogram.percentile(99) / 1e5) / 10,
      one_go_stringify_ms: Math.round(best * 10) / 10,
    };
  } finally {
    await service.stop();
    await dns.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchVerifyEmailDoor(), null, 1));
}
