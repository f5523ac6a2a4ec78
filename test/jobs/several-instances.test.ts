import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLog } from '../../observability/log.js';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { startService, type RunningService } from '../../server/start-service.js';
import { oneAtATime } from '../support/one-at-a-time.js';
import { seedDemo, type DemoAccount } from '../../admin/seed-demo.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../support/test-database.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { FREE_DOMAINS, orderBody, tenancyProbe } from '../orders/support/ordering-fixture.js';
import { readQueueState } from '../../jobs/read-queue-state.js';
import { FAST_SETUP_RECHECK, jobsZone, publishedSetup, startJobsRdapServer } from './jobs-zone.js';
import { registry } from '../../observability/metrics.js';
import { waitFor } from './webhook-receiver.js';

/**
 * Three instances on one PostgreSQL database, each running graphile-worker: every domain of an order
 * goes live exactly once, even when a build is cut off half-way on one instance and retried.
 * (Embedded PGlite serves one process, so this needs DATABASE_URL; jobs-flows.test.ts runs the same
 * flows on PGlite in one process.)
 */
describe.runIf(usingPostgres)('three instances sharing the queue on PostgreSQL', () => {
  let database: TestDatabase;
  let dns: TestDnsServer;
  let rdap: Awaited<ReturnType<typeof startJobsRdapServer>>;
  const instances: RunningService[] = [];
  let demo: DemoAccount;
  const domains = FREE_DOMAINS.slice(20, 26);
  const faults = new Set(['build_after_building']);
  let release: (() => void) | undefined;

  beforeAll(async () => {
    // Three instances, each with its pool and graphile-worker's: never beside the other files that
    // start several (test/support/one-at-a-time.ts), or together they take PostgreSQL's 100
    // connections (a CI run's killed-worker-postgres got "sorry, too many clients already").
    release = await oneAtATime('postgres-instances');
    database = await createTestDatabase();
    dns = await startTestDnsServer({ records: jobsZone(domains.slice(0, 3)) });
    rdap = await startJobsRdapServer();
    const env = {
      ...process.env,
      JOBS: 'on',
      LOG_LEVEL: 'silent',
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '400',
      DNS_TRIES: '1',
      RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl,
      SANDBOX_BUILD_DELAY_MS: '200',
      JOBS_SWEEP_INTERVAL_MS: '500',
      JOBS_CONCURRENCY: '3',
      ...FAST_SETUP_RECHECK,
    };
    configureLog({ silent: true });
    const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: database.databaseUrl, dataDir: 'memory' };
    // Whichever instance runs the first build stops dead half-way through it (the set is shared).
    for (let i = 0; i < 3; i++) {
      instances.push(
        await startService(config, { env, googleTenancy: tenancyProbe, jobFaults: faults, rateLimits: { order: 1000 }, pglite: await database.pglite() }),
      );
    }
    demo = await seedDemo(instances[0]!.services.db, 'test');
  }, 60_000);
  afterAll(async () => {
    for (const instance of instances) await instance.stop().catch(() => {});
    await dns?.close();
    await rdap?.close();
    await database?.drop();
    release?.();
  });

  it("an order's six domains each reach live exactly once, one build retried after it was cut off", async () => {
    const api = instances[1]!.apiUrl;
    const headers = { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' };
    const link = (await (
      await fetch(`${api}/v1/payment-method/setup-link`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ success_url: 'https://example.com/s', cancel_url: 'https://example.com/c' }),
      })
    ).json()) as { url: string };
    await fetch(link.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242424242424242&expiry=12+%2F+34&cvc=123&name=Ada',
    });
    const placed = await fetch(`${api}/v1/orders`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'three-instances-1' },
      body: JSON.stringify(orderBody(domains, 1)),
    });
    expect(placed.status).toBe(200);
    const db = instances[2]!.services.db;
    // Built once each, then waiting for their DNS until the owner publishes what the setup asks for.
    await waitFor(
      'six built domains waiting for their DNS',
      async () => {
        const rows = await db.selectFrom('domains').select('build_state').where('domain', 'in', domains).execute();
        return rows.length === 6 && rows.every((r) => r.build_state === 'waiting_for_dns');
      },
      40_000,
    );
    const published = [];
    for (const domain of domains) {
      const setup = (await (await fetch(`${instances[0]!.apiUrl}/v1/domains/${domain}/setup`, { headers })).json()) as {
        records: Parameters<typeof publishedSetup>[0];
      };
      published.push(...publishedSetup(setup.records));
    }
    dns.setRecords([...jobsZone([]), ...published]);
    await waitFor(
      'six live domains',
      async () => {
        const rows = await db.selectFrom('domains').select('build_state').where('domain', 'in', domains).execute();
        return rows.length === 6 && rows.every((r) => r.build_state === 'live');
      },
      40_000,
    );
    const live = await db.selectFrom('events').select('data').where('type', '=', 'domain.live').execute();
    const counts = new Map<string, number>();
    for (const e of live) {
      const d = JSON.parse(e.data).domain as string;
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
    expect(domains.map((d) => counts.get(d))).toEqual([1, 1, 1, 1, 1, 1]);
    // The build cut off half-way failed once and was retried by graphile-worker.
    expect(faults.size).toBe(0);
    const failures = (await registry.getSingleMetric('job_failures_total')!.get()).values.find((v) => v.labels.task === 'build_domain');
    expect(failures?.value).toBeGreaterThanOrEqual(1);
    const state = await readQueueState(db, 60_000);
    expect(state).toMatchObject({ runner: 'graphile-worker', failed: 0 });
  }, 60_000);
});
