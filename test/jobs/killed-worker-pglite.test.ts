import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres, migratedDataDir } from '../support/test-database.js';
import { runAdmin, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { FREE_DOMAINS } from '../orders/support/ordering-fixture.js';
import { FAST_SETUP_RECHECK, jobsZone, publishedSetup, startJobsRdapServer } from './jobs-zone.js';
import { startWebhookReceiver, waitFor } from './webhook-receiver.js';
import { customer, liveDeliveries } from './spawned-ordering.js';

/**
 * Embedded PGlite, one real process with its data on disk: killed with SIGKILL in the middle of a
 * build, then started again on the same folder. The in-process queue unlocks what the dead process
 * held and runs it again; the build finishes once. (On PostgreSQL the same is shown across instances
 * by killed-worker-postgres.test.ts; this one runs on the PGlite pass only.)
 */
const reason = usingPostgres ? ' (skipped: the PostgreSQL pass runs killed-worker-postgres.test.ts; this one is about PGlite)' : '';

describe.skipIf(usingPostgres)(`a process killed mid-job on embedded PGlite${reason}`, () => {
  let dns: TestDnsServer;
  let rdap: Awaited<ReturnType<typeof startJobsRdapServer>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: SpawnedServer | undefined;
  const dataDir = migratedDataDir('killed-worker-pglite-');
  const domain = FREE_DOMAINS[31]!;
  let env: Record<string, string>;

  beforeAll(async () => {
    dns = await startTestDnsServer({ records: jobsZone([]) });
    rdap = await startJobsRdapServer();
    receiver = await startWebhookReceiver();
    env = {
      DATA_DIR: dataDir,
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '400',
      DNS_TRIES: '1',
      RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl,
      SANDBOX_BUILD_DELAY_MS: '200',
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      ALERT_OUTBOX_DIR: join(dataDir, 'outbox'),
      JOB_TEST_PAUSE: 'build_after_building:60000',
      LOG_REQUESTS: '0',
      // The test reads the dashboard every 100 ms while it waits: on a slow machine that passed the
      // 240 reads a minute a key may make, and the 429 had no orders to read. Limits are not its subject.
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
      ...FAST_SETUP_RECHECK,
    };
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await dns?.close();
    await rdap?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a build running when the process died runs again after the restart and is recorded once', async () => {
    server = await spawnServer({ env });
    // Through the admin socket of the running service (PGlite is its alone).
    const demo = await runAdmin(['seed-demo', '--shared-demo-token'], { DATA_DIR: dataDir });
    const me = customer(String(demo.key));
    await me.saveCard(server);
    await me.addWebhook(server, receiver.url, ['domain.live']);
    await me.placeOrder(server, [domain], 'killed-pglite-1');
    const buildState = async (s: SpawnedServer) => {
      const dashboard = await me.call(s, 'GET', '/v1/portal/dashboard');
      expect(dashboard.status, JSON.stringify(dashboard.body)).toBe(200);
      const domains = (dashboard.body.orders as { domains: { domain: string; build_state: string }[] }[]).flatMap((o) => o.domains);
      return domains.find((d) => d.domain === domain)?.build_state;
    };
    await waitFor('the build under way', async () => (await buildState(server!)) === 'building', 30_000);
    const before = await runAdmin(['jobs'], { DATA_DIR: dataDir });
    expect(before).toMatchObject({ runner: 'in-process', running: 1 });

    const killed = server;
    killed.signal('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    const restartedAt = Date.now();
    server = await spawnServer({ env });
    await waitFor('the build finished after the restart', async () => (await buildState(server!)) === 'waiting_for_dns', 30_000);
    // The owner publishes what the setup asks for; the jobs' next check puts the domain live.
    const setup = await me.call(server, 'GET', `/v1/domains/${domain}/setup`);
    expect(setup.status).toBe(200);
    dns.setRecords([...jobsZone([]), ...publishedSetup(setup.body.records)]);
    await waitFor('the domain live after the restart', async () => (await buildState(server!)) === 'live', 30_000);
    console.info(`killed-worker (PGlite): restart to the build finished in ${Date.now() - restartedAt} ms, start-up included`);

    await waitFor('the domain.live delivery', async () => liveDeliveries(receiver.received, domain).length > 0);
    // No build, fan-out or delivery job left (the queue as `admin jobs` reads it): one that could
    // send domain.live again would be there or have run.
    const after = await waitFor(
      'no build, fan-out or delivery job left',
      async () => {
        const state = await runAdmin(['jobs'], { DATA_DIR: dataDir });
        const tasks = state.by_task as Record<string, number>;
        return (tasks.build_domain ?? 0) + (tasks.fan_out_event ?? 0) + (tasks.deliver_webhook ?? 0) === 0 ? state : null;
      },
      60_000,
      1000,
    );
    expect(liveDeliveries(receiver.received, domain)).toHaveLength(1);
    expect((after.by_task as Record<string, number>).build_domain ?? 0).toBe(0);
    expect(after).toMatchObject({ failed: 0 });
  }, 150_000);
});
