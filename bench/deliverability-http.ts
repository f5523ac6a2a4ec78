import { pathToFileURL } from 'node:url';
import { serviceConfigFromEnv } from '../config/settings.js';
import { configureLog } from '../observability/log.js';
import { probeDnsblLiveness } from '../jobs/probe-dnsbl-liveness.js';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import { startService } from '../server/start-service.js';
import { GOOD_TEST_CHAIN_DEPTH, serveInChild } from './cost.js';

/**
 * bench/deliverability-http.ts — check-deliverability of good.test (the demo zone's domain) through
 * the public HTTP listener, GET /.platform/functions/check-deliverability, against the critical path:
 * wall time ÷ (longest chain of dependent lookups × round trip), each DNS answer held back RTT_MS by
 * a server in a child process (bench/cost.ts). Beside it, in the same run and on the same running
 * service (its own services, its probe of the blocklists already made), the same check called
 * in-process: what the HTTP door, the request scope and the answer's shaping add to the wait is the
 * difference. Rounds alternate which way goes first, so the machine's drift hits both alike.
 */
const DOMAIN = 'good.test';
const RTT_MS = 30;
const RUNS = 15;
const ROUNDS = 6;

export interface DeliverabilityHttpFigures {
  readonly domain: string;
  readonly rtt_ms: number;
  readonly chain_depth: number;
  readonly runs_per_way: number;
  /** Median wall time per check (ms) and that ÷ the critical path (chain depth × RTT_MS). */
  readonly http: { readonly wall_ms: number; readonly wall_per_ideal: number };
  readonly in_process: { readonly wall_ms: number; readonly wall_per_ideal: number };
  /** The HTTP median ÷ the in-process median. */
  readonly http_per_in_process: number;
  readonly grade: string | null;
}

export async function benchDeliverabilityHttp(): Promise<DeliverabilityHttpFigures> {
  const child = await serveInChild();
  configureLog({ silent: true });
  const env = {
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory',
    PUBLIC_PORT: '0',
    API_PORT: '0',
    HOST: '127.0.0.1',
    JOBS: 'off',
    DNS_SERVERS: `127.0.0.1:${child.dnsPort}`,
    RDAP_BOOTSTRAP_URL: child.bootstrapUrl,
    DATABASE_URL: process.env.DATABASE_URL,
  };
  const service = await startService(
    { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0 },
    { env, googleTenancy: { probe: async () => 'unknown' as const }, rateLimits: { public: 1_000_000 } },
  );
  try {
    // The blocklists' liveness probed once, as the job does: both ways read it (today's default).
    await probeDnsblLiveness({}, service.jobs.environment, { id: 'bench', attempt: 1 });
    const url = `${service.publicUrl}/.platform/functions/check-deliverability?domain=${DOMAIN}`;
    const ways = {
      http: async () => {
        const response = await fetch(url);
        const body = (await response.json()) as { grade?: string | null };
        if (response.status !== 200) throw new Error(`check-deliverability answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return body.grade ?? null;
      },
      in_process: async () => (await checkDeliverability({ domain: DOMAIN }, service.services.createCheckContext({}))).grade ?? null,
    };
    type Way = keyof typeof ways;
    const grades = new Set<string | null>();
    const timed = async (way: Way) => {
      const started = performance.now();
      grades.add(await ways[way]());
      return performance.now() - started;
    };
    // Warm-up: JIT of both paths, sockets, the RDAP bootstrap file.
    for (let i = 0; i < 10; i += 1) {
      await timed('http');
      await timed('in_process');
    }
    const walls: Record<Way, number[]> = { http: [], in_process: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const way of round % 2 === 0 ? (['http', 'in_process'] as const) : (['in_process', 'http'] as const)) {
        for (let i = 0; i < RUNS; i += 1) walls[way].push(await timed(way));
      }
    }
    if (grades.size !== 1) throw new Error(`the two ways graded differently: ${[...grades].join(', ')}`);
    const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const round2 = (n: number) => Math.round(n * 100) / 100;
    const ideal = GOOD_TEST_CHAIN_DEPTH * RTT_MS;
    const figures = (way: Way) => {
      const wall = median(walls[way]);
      return { wall_ms: round2(wall), wall_per_ideal: round2(wall / ideal) };
    };
    const http = figures('http');
    const inProcess = figures('in_process');
    return {
      domain: DOMAIN,
      rtt_ms: RTT_MS,
      chain_depth: GOOD_TEST_CHAIN_DEPTH,
      runs_per_way: RUNS * ROUNDS,
      http,
      in_process: inProcess,
      http_per_in_process: round2(http.wall_ms / inProcess.wall_ms),
      grade: [...grades][0] ?? null,
    };
  } finally {
    await service.stop();
    child.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchDeliverabilityHttp(), null, 1));
}
