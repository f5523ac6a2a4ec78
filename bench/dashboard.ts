import { spawn } from 'node:child_process';
import { deepStrictEqual } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { openDatabase, type OpenedDatabase } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { createApiKey } from '../resolvers/auth/api-keys.js';
import { SCOPES } from '../resolvers/auth/scopes.js';
import { readSettings, serviceConfigFromEnv } from '../config/settings.js';
import { createServices } from '../server/create-services.js';
import { createGraphqlServer } from '../server/create-yoga.js';
import { createApiApp } from '../server/api-app.js';
import { loadDocument } from '../operations/operation-document.js';
import { answerTextOf } from '../operations/json-response.js';
import { handleGraphql } from '../server/graphql-door.js';
import { repoRoot, spawnServer, transpiled } from '../test/support/spawn-server.js';
import { createTestDatabase } from '../test/support/test-database.js';
import { provideOutsideVitest } from './outside-vitest.js';

/**
 * GET /v1/portal/dashboard for an account with 500 domains over 50 orders:
 * (i) database round trips per request, at 5 orders / 50 domains and at 50 / 500 (must not grow);
 * (ii) throughput and latency with autocannon against a real server process: REST, the same
 *      operation on /graphql, and the floor: a plain node:http handler doing the same key lookup,
 *      allowance count, SQL and JSON.stringify (bench/dashboard-floor.ts), its answer checked equal to REST's.
 * Runs on embedded PGlite in a temporary folder (one process: the bench seeds it, closes it, then
 * the server opens it), or, with DATABASE_URL set, on a new PostgreSQL database dropped afterwards.
 * PGlite runs inside the server's own thread, so its query time is the server's CPU time; PostgreSQL
 * works in its own processes.
 */

export interface RoundTrips {
  readonly orders: number;
  readonly domains: number;
  /** Statements run through Kysely for one request (key lookup and the dashboard's own). */
  readonly kysely_queries: number;
  /** Statements run outside Kysely (the rate-limit counter's upsert). */
  readonly raw_queries: number;
  readonly total: number;
}

export interface LoadFigures {
  readonly name: string;
  readonly requests_per_second: number;
  readonly latency_mean_ms: number;
  readonly latency_p50_ms: number;
  readonly latency_p99_ms: number;
  readonly non_2xx: number;
  readonly errors: number;
  /** CPU the serving process spent per answered request (Linux): with PostgreSQL, our own code's cost, whatever else loads the machine. */
  readonly serving_cpu_ms_per_request: number | null;
}

export interface DashboardBenchFigures {
  readonly database: 'pglite' | 'postgres';
  readonly round_trips: readonly RoundTrips[];
  /** CPU per request in-process, REST and both ways of /graphql (inProcessCpu). */
  readonly in_process_cpu_ms: InProcessCpu;
  readonly body_bytes: number;
  readonly connections: number;
  readonly duration_s: number;
  readonly rest: LoadFigures;
  readonly graphql: LoadFigures;
  readonly floor: LoadFigures;
  /** REST latency over GraphQL's (target <= 1.15). */
  readonly rest_per_graphql_mean: number;
  readonly rest_per_graphql_p99: number;
  /** REST's throughput over the plain handler's doing the same work (target >= 0.9): what the router, GraphQL and the door cost. */
  readonly rest_per_floor_throughput: number;
  /** The floor's CPU per request over REST's (serving process only): the throughput ratio on an idle machine, read without the noise of a busy one. */
  readonly floor_per_rest_cpu: number | null;
  /** /graphql's throughput over the floor's (target >= 0.8) and over REST's (target >= 0.9), same run. */
  readonly graphql_per_floor_throughput: number;
  readonly graphql_per_rest_throughput: number;
  /** The floor's and REST's CPU per request over /graphql's (serving process only). */
  readonly floor_per_graphql_cpu: number | null;
  readonly rest_per_graphql_cpu: number | null;
  /** Measured rounds per door; each round runs REST, GraphQL and the floor, in an order that alternates round by round. */
  readonly rounds: number;
}

/** Counts every statement Kysely runs; installed with withPlugin() by this bench only. */
class CountingPlugin implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** An account with `orders` orders of `perOrder` domains, two mailboxes each; returns a key with every scope (bench/portal.ts seeds its account with it too). */
export async function seedLargeAccount(db: Kysely<Database>, orders: number, perOrder: number, tag: string): Promise<string> {
  const account = await db
    .insertInto('accounts')
    .values({ name: `Bench ${orders}x${perOrder}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const plan = await db
    .insertInto('plans')
    .values({
      account_id: account.id,
      sku: 'google-inbox-unwarmed',
      product: 'Google Workspace inboxes, unwarmed',
      description: 'Bench plan.',
      unit_amount: 350,
      currency: 'usd',
      interval: 'month',
      mailboxes_per_unit: 1,
      orderable: true,
      why_not: null,
      processor_price_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const workspace = await db.insertInto('workspaces').values({ account_id: account.id, name: 'Bench folder' }).returning('id').executeTakeFirstOrThrow();
  for (let o = 0; o < orders; o++) {
    const order = await db
      .insertInto('orders')
      .values({
        account_id: account.id,
        plan_id: plan.id,
        reference: `ORD-BENCH-${tag}-${o}`,
        subscription_id: `sub_bench_${tag}_${o}`,
        status: 'active',
        quantity: perOrder * 2,
        unit_amount: 350,
        currency: 'usd',
        interval: 'month',
        sequencer: null,
        created_at: new Date(Date.now() - o * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const domains = await db
      .insertInto('domains')
      .values(
        Array.from({ length: perOrder }, (_, d) => ({
          account_id: account.id,
          order_id: order.id,
          workspace_id: d % 3 === 0 ? workspace.id : null,
          domain: `bench-${tag}-${o}-${d}.com`,
          build_state: d % 5 === 0 ? 'building' : 'live',
          forward_to: d % 4 === 0 ? `main-${tag}.com` : null,
          watched_since: null,
          created_at: new Date(),
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('mailboxes')
      .values(
        domains.flatMap((row) => [
          { domain_id: row.id, first_name: 'Alex', last_name: 'Morgan', local_part: 'alex' },
          { domain_id: row.id, first_name: 'Sam', last_name: 'Rivera', local_part: 'sam' },
        ]),
      )
      .execute();
  }
  return (await createApiKey(db, account.id, SCOPES)).key;
}

/** Round trips per dashboard request, through the real account app in-process, with counters. */
async function countRoundTrips(database: OpenedDatabase, accounts: readonly { orders: number; domains: number; key: string }[]): Promise<RoundTrips[]> {
  const plugin = new CountingPlugin();
  let raw = 0;
  const counted: OpenedDatabase = {
    ...database,
    db: database.db.withPlugin(plugin),
    raw: {
      query: (q) => {
        raw += 1;
        return database.raw.query(q);
      },
    },
  };
  const config = { ...serviceConfigFromEnv({}), apiPort: 0, publicPort: 0 };
  const env = { LOG_LEVEL: 'silent', DNS_SERVERS: '127.0.0.1:9' };
  const app = createApiApp(createServices(counted, config, readSettings(env), { rateLimits: { read: 1_000_000 } }), createGraphqlServer({ graphiql: false }));
  const out: RoundTrips[] = [];
  for (const account of accounts) {
    const once = async () => {
      const response = await app(new Request('http://127.0.0.1/v1/portal/dashboard', { headers: { authorization: `Bearer ${account.key}` } }), {
        requestId: 'bench-round-trips',
        clientAddress: '127.0.0.1',
      });
      if (response.status !== 200) throw new Error(`dashboard answered ${response.status}: ${await response.text()}`);
      const body = (await response.json()) as { domain_count: number };
      if (body.domain_count !== account.domains) throw new Error(`expected ${account.domains} domains, got ${body.domain_count}`);
    };
    await once(); // the first request also creates the rate-limit row; count a steady one
    plugin.count = 0;
    raw = 0;
    const runs = 5;
    for (let i = 0; i < runs; i++) await once();
    out.push({
      orders: account.orders,
      domains: account.domains,
      kysely_queries: plugin.count / runs,
      raw_queries: raw / runs,
      total: (plugin.count + raw) / runs,
    });
  }
  return out;
}

/** CPU per request in-process (ms), the three ways the 500-domain dashboard can be asked for. */
export interface InProcessCpu {
  readonly rest: number;
  /** /graphql as it answers one JSON operation: in-process, as REST runs its operations. */
  readonly graphql: number;
  /** /graphql through yoga's HTTP handling, as every request went before (GET and batches still do). */
  readonly graphql_through_yoga: number;
}

/**
 * The account app's CPU per dashboard request with no socket, no other process and no scheduling in
 * the figure: each way asked 100 times (4 at a time) per round, the ways in turn (each round starting
 * with the next one), the first round a warm-up. On a shared machine this is the steadier view of what each door costs.
 */
async function inProcessCpu(database: OpenedDatabase, key: string, rounds = 6): Promise<InProcessCpu> {
  const config = { ...serviceConfigFromEnv({}), apiPort: 0, publicPort: 0 };
  const services = createServices(database, config, readSettings({ LOG_LEVEL: 'silent', DNS_SERVERS: '127.0.0.1:9' }), { rateLimits: { read: 1_000_000_000 } });
  const yoga = createGraphqlServer({ graphiql: false });
  const app = createApiApp(services, yoga);
  const { source, operationName } = loadDocument('dashboard');
  const body = JSON.stringify({ query: source, operationName });
  const info = { requestId: 'bench-in-process', clientAddress: '127.0.0.1' };
  const graphqlRequest = () =>
    new Request('http://127.0.0.1/graphql', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  const ways: Record<keyof InProcessCpu, () => Promise<Response>> = {
    rest: () => app(new Request('http://127.0.0.1/v1/portal/dashboard', { headers: { authorization: `Bearer ${key}` } }), info),
    graphql: () => app(graphqlRequest(), info),
    graphql_through_yoga: () => handleGraphql(yoga, services, graphqlRequest(), info, { readByDoor: false }),
  };
  const cpu = { rest: 0, graphql: 0, graphql_through_yoga: 0 };
  const perRound = 100;
  for (let round = 0; round < rounds; round++) {
    // The ways in turn, starting each round with the next one, so none is always first.
    const order = Object.keys(ways) as (keyof InProcessCpu)[];
    for (const way of [...order.slice(round % order.length), ...order.slice(0, round % order.length)]) {
      let left = perRound;
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (left-- > 0) {
            const response = await ways[way]();
            if (response.status !== 200) throw new Error(`${way} answered ${response.status}`);
            // What the socket would be given: the text as it is, or the body read.
            if (answerTextOf(response) === undefined) await response.arrayBuffer();
          }
        }),
      );
      const used = process.cpuUsage(before);
      if (round > 0) cpu[way] += (used.user + used.system) / 1000;
    }
  }
  const per = (total: number) => Math.round((total / ((rounds - 1) * perRound)) * 1000) / 1000;
  return { rest: per(cpu.rest), graphql: per(cpu.graphql), graphql_through_yoga: per(cpu.graphql_through_yoga) };
}

/**
 * The floor (bench/dashboard-floor.ts) in its own process on the bench's database: a plain node:http
 * handler doing the same key lookup, allowance count, SQL and JSON.stringify as the dashboard path.
 */
async function startFloor(where: Record<string, string>): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'silent', DNS_SERVERS: '127.0.0.1:9', ...where };
  // Plain node on the run's transpiled copy, as spawnServer runs the service: under tsx the floor
  // paid for module hooks the service does not, and the two sides were not alike.
  const child = spawn(process.execPath, [transpiled('bench/dashboard-floor.ts')], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (c) => reject(new Error(`floor server exited ${c}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc; null where there is none. */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

async function load(name: string, options: autocannon.Options, pid: number): Promise<LoadFigures> {
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon(options);
  const cpuAfter = cpuMsOf(pid);
  return {
    name,
    serving_cpu_ms_per_request:
      cpuBefore === null || cpuAfter === null ? null : Math.round(((cpuAfter - cpuBefore) / Math.max(1, result.requests.total)) * 100) / 100,
    requests_per_second: Math.round(result.requests.average),
    latency_mean_ms: Math.round(result.latency.average * 100) / 100,
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** The mean of each figure over the rounds (sums for the counts). */
function averageRounds(list: readonly LoadFigures[]): LoadFigures {
  const mean = (pick: (l: LoadFigures) => number) => Math.round((list.reduce((sum, l) => sum + pick(l), 0) / list.length) * 100) / 100;
  return {
    name: list[0]!.name,
    requests_per_second: Math.round(mean((l) => l.requests_per_second)),
    latency_mean_ms: mean((l) => l.latency_mean_ms),
    latency_p50_ms: mean((l) => l.latency_p50_ms),
    latency_p99_ms: mean((l) => l.latency_p99_ms),
    non_2xx: list.reduce((sum, l) => sum + l.non_2xx, 0),
    errors: list.reduce((sum, l) => sum + l.errors, 0),
    serving_cpu_ms_per_request: list.every((l) => l.serving_cpu_ms_per_request !== null) ? mean((l) => l.serving_cpu_ms_per_request ?? 0) : null,
  };
}

export async function benchDashboard(
  options: { readonly connections?: number; readonly durationS?: number; readonly rounds?: number } = {},
): Promise<DashboardBenchFigures> {
  const connections = options.connections ?? 10;
  const durationS = options.durationS ?? 6;
  // Four rounds: one pair moves ±0.05 on a shared machine; the mean of four is what the target is read from.
  const rounds = options.rounds ?? 4;
  const dir = mkdtempSync(join(tmpdir(), 'bench-dashboard-'));
  const postgres = process.env.DATABASE_URL ? await createTestDatabase() : null;
  const where: Record<string, string> = postgres?.databaseUrl ? { DATABASE_URL: postgres.databaseUrl } : { DATA_DIR: join(dir, 'data') };
  try {
    const database = await openDatabase(postgres ? { databaseUrl: postgres.databaseUrl } : { dataDir: join(dir, 'data') });
    let bigKey: string;
    let roundTrips: RoundTrips[];
    let inProcess: InProcessCpu;
    try {
      await migrateToLatest(database.db);
      const smallKey = await seedLargeAccount(database.db, 5, 10, 'small');
      bigKey = await seedLargeAccount(database.db, 50, 10, 'big');
      roundTrips = await countRoundTrips(database, [
        { orders: 5, domains: 50, key: smallKey },
        { orders: 50, domains: 500, key: bigKey },
      ]);
      inProcess = await inProcessCpu(database, bigKey);
    } finally {
      await database.close();
    }

    const headers = { authorization: `Bearer ${bigKey}` };
    const { source, operationName } = loadDocument('dashboard');
    const restRounds: LoadFigures[] = [];
    const graphqlRounds: LoadFigures[] = [];
    const floorRounds: LoadFigures[] = [];
    let bodyBytes = 0;
    let restBody: unknown;
    const gqlBody = JSON.stringify({ query: source, operationName });
    // The service's two doors in one process: REST's GET and the same operation POSTed to /graphql,
    // both answering the same page (the counts and the first 10 of the 500 domains). `restFirst`
    // alternates which is measured first, so neither always gets the fresher process.
    const measureService = async (restFirst: boolean) => {
      const server = await spawnServer({ env: { ...where, RATE_LIMIT_READ_PER_MINUTE: '100000000' } });
      try {
        const restUrl = `${server.apiUrl}/v1/portal/dashboard`;
        const first = await fetch(restUrl, { headers });
        const text = await first.text();
        if (first.status !== 200) throw new Error(`dashboard answered ${first.status}: ${text}`);
        restBody = JSON.parse(text);
        bodyBytes = Buffer.byteLength(text);
        const gqlOptions = {
          url: `${server.apiUrl}/graphql`,
          method: 'POST' as const,
          connections,
          headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
          body: gqlBody,
        };
        const check = await fetch(gqlOptions.url, { method: 'POST', headers: gqlOptions.headers, body: gqlOptions.body });
        // GraphQL's own names: the document selects without aliases (REST's snake_case is made at the door).
        const checked = (await check.json()) as { data?: { dashboard?: { domainCount?: number; domainsConnection?: { orders?: { domains?: unknown[] }[] } } } };
        if (checked.data?.dashboard?.domainCount !== 500) throw new Error(`/graphql did not answer the dashboard: ${JSON.stringify(checked).slice(0, 300)}`);
        // Like with like: /graphql's page holds as many domains as REST's.
        const domainsOf = (orders: readonly { domains?: readonly unknown[] }[] | undefined) => (orders ?? []).reduce((n, o) => n + (o.domains?.length ?? 0), 0);
        const restDomains = domainsOf((restBody as { orders?: { domains?: unknown[] }[] }).orders);
        if (domainsOf(checked.data.dashboard.domainsConnection?.orders) !== restDomains)
          throw new Error(`/graphql answered ${domainsOf(checked.data.dashboard.domainsConnection?.orders)} domains, REST ${restDomains}: not the same work`);
        // Warm-up (V8, pools, caches) for each target, then the measured runs.
        for (const warm of restFirst ? [{ url: restUrl, headers }, gqlOptions] : [gqlOptions, { url: restUrl, headers }])
          await autocannon({ ...warm, connections, duration: 2 });
        const measureRest = async () =>
          restRounds.push(await load('REST GET /v1/portal/dashboard', { url: restUrl, headers, connections, duration: durationS }, server.pid));
        const measureGraphql = async () => graphqlRounds.push(await load('POST /graphql (same operation)', { ...gqlOptions, duration: durationS }, server.pid));
        for (const measure of restFirst ? [measureRest, measureGraphql] : [measureGraphql, measureRest]) await measure();
      } finally {
        await server.stop();
      }
    };
    const measureFloor = async () => {
      const floor = await startFloor(where);
      try {
        const sample = await fetch(floor.url, { headers });
        // The floor must answer what REST answers, or it measures something else.
        deepStrictEqual(JSON.parse(await sample.text()), restBody);
        await autocannon({ url: floor.url, headers, connections, duration: 2 });
        floorRounds.push(await load('plain node:http, same work', { url: floor.url, headers, connections, duration: durationS }, floor.pid));
      } finally {
        await floor.stop();
      }
    };
    // Each door in a fresh process (embedded PGlite has one owner at a time). The order alternates
    // round by round: service then floor with REST first; floor then service with /graphql first;
    // so a machine's drift within a round does not always favour the same side. The first round
    // starts with the service, whose REST answer the floor's is checked against.
    for (let i = 0; i < rounds; i++) {
      const even = i % 2 === 0;
      if (even) {
        await measureService(true);
        await measureFloor();
      } else {
        await measureFloor();
        await measureService(false);
      }
    }
    const rest = averageRounds(restRounds);
    const graphql = averageRounds(graphqlRounds);
    const floorFigures = averageRounds(floorRounds);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      database: postgres ? 'postgres' : 'pglite',
      round_trips: roundTrips,
      in_process_cpu_ms: inProcess,
      body_bytes: bodyBytes,
      connections,
      duration_s: durationS,
      rest,
      graphql,
      floor: floorFigures,
      rest_per_graphql_mean: ratio(rest.latency_mean_ms, graphql.latency_mean_ms),
      rest_per_graphql_p99: ratio(rest.latency_p99_ms, graphql.latency_p99_ms),
      rest_per_floor_throughput: ratio(rest.requests_per_second, floorFigures.requests_per_second),
      floor_per_rest_cpu:
        rest.serving_cpu_ms_per_request && floorFigures.serving_cpu_ms_per_request
          ? ratio(floorFigures.serving_cpu_ms_per_request, rest.serving_cpu_ms_per_request)
          : null,
      graphql_per_floor_throughput: ratio(graphql.requests_per_second, floorFigures.requests_per_second),
      graphql_per_rest_throughput: ratio(graphql.requests_per_second, rest.requests_per_second),
      floor_per_graphql_cpu:
        graphql.serving_cpu_ms_per_request && floorFigures.serving_cpu_ms_per_request
          ? ratio(floorFigures.serving_cpu_ms_per_request, graphql.serving_cpu_ms_per_request)
          : null,
      rest_per_graphql_cpu:
        graphql.serving_cpu_ms_per_request && rest.serving_cpu_ms_per_request
          ? ratio(rest.serving_cpu_ms_per_request, graphql.serving_cpu_ms_per_request)
          : null,
      rounds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

export function printDashboardFigures(f: DashboardBenchFigures): void {
  console.log(`Dashboard bench: GET /v1/portal/dashboard, ${f.database === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}`);
  for (const r of f.round_trips) {
    console.log(
      `  round trips, ${r.orders} orders / ${r.domains} domains: ${r.total} per request (${r.kysely_queries} through Kysely + ${r.raw_queries} rate-limit counter)`,
    );
  }
  const c = f.in_process_cpu_ms;
  console.log(
    `  CPU per request in-process (no sockets): REST ${c.rest} ms, /graphql ${c.graphql} ms, /graphql through yoga's HTTP handling (the path before) ${c.graphql_through_yoga} ms`,
  );
  console.log(
    `  load: ${f.connections} connections, ${f.rounds} rounds (REST, /graphql, floor, the order alternating) of ${f.duration_s} s each (figures are their mean), answer ${Math.round(f.body_bytes / 1024)} KB`,
  );
  for (const l of [f.rest, f.graphql, f.floor]) {
    console.log(
      `  ${l.name.padEnd(32)} ${String(l.requests_per_second).padStart(6)} req/s  mean ${l.latency_mean_ms} ms  p50 ${l.latency_p50_ms} ms  p99 ${l.latency_p99_ms} ms  non-2xx ${l.non_2xx}  errors ${l.errors}  cpu/request ${l.serving_cpu_ms_per_request ?? '-'} ms`,
    );
  }
  console.log(
    `  REST / GraphQL latency: mean ${f.rest_per_graphql_mean}, p99 ${f.rest_per_graphql_p99} (target <= 1.15); REST / plain handler throughput ${f.rest_per_floor_throughput} (target >= 0.9); plain / REST CPU per request ${f.floor_per_rest_cpu ?? '-'}`,
  );
  console.log(
    `  /graphql / plain handler throughput ${f.graphql_per_floor_throughput} (target >= 0.8); /graphql / REST throughput ${f.graphql_per_rest_throughput} (target >= 0.9); CPU per request, plain / GraphQL ${f.floor_per_graphql_cpu ?? '-'}, REST / GraphQL ${f.rest_per_graphql_cpu ?? '-'}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Outside vitest: the transpiled copy and the migrated templates the test helpers read (bench/outside-vitest.ts).
  const teardown = await provideOutsideVitest();
  try {
    printDashboardFigures(await benchDashboard());
  } finally {
    await teardown();
  }
}
