import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneAtATime } from '../support/one-at-a-time.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../support/test-database.js';
import { runAdmin, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { FREE_DOMAINS } from '../orders/support/ordering-fixture.js';
import { FAST_SETUP_RECHECK, jobsZone, publishedSetup, startJobsRdapServer } from './jobs-zone.js';
import { startWebhookReceiver, waitFor } from './webhook-receiver.js';
import { customer, liveDeliveries } from './spawned-ordering.js';

/**
 * Three real server processes on one PostgreSQL database. The one running a long build is killed
 * with SIGKILL (no chance to release anything): graphile-worker alone would leave the job locked for
 * four hours; the worker heartbeats and the lease (JOB_LEASE_MS) hand it to another instance, which
 * finishes the build once. PGlite serves one process, so this needs DATABASE_URL
 * (killed-worker-pglite.test.ts shows the restart on PGlite).
 */
const reason = usingPostgres ? '' : ' (skipped: needs DATABASE_URL, since PGlite serves one process)';
const LEASE_MS = 3000;

describe.skipIf(!usingPostgres)(`a worker killed mid-job on PostgreSQL${reason}`, () => {
  let database: TestDatabase;
  let release: (() => void) | undefined;
  let dns: TestDnsServer;
  let rdap: Awaited<ReturnType<typeof startJobsRdapServer>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let client: pg.Client;
  let servers: SpawnedServer[] = [];
  const outbox = mkdtempSync(join(tmpdir(), 'killed-worker-outbox-'));
  const domain = FREE_DOMAINS[30]!;

  beforeAll(async () => {
    // Three server processes, each with its pools: never beside the other file that starts several
    // (test/support/one-at-a-time.ts), or together they take PostgreSQL's 100 connections.
    release = await oneAtATime('postgres-instances');
    database = await createTestDatabase({ empty: true });
    // Nothing published before the order (MX at Google would read as another tenant without the
    // in-process probe): the setup's records are published once the build has made the DKIM key.
    dns = await startTestDnsServer({ records: jobsZone([]) });
    rdap = await startJobsRdapServer();
    receiver = await startWebhookReceiver();
    const env = {
      DATABASE_URL: database.databaseUrl!,
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '400',
      DNS_TRIES: '1',
      RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl,
      SANDBOX_BUILD_DELAY_MS: '200',
      JOB_LEASE_MS: String(LEASE_MS),
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
      ALERT_OUTBOX_DIR: outbox,
      // A build's first attempt stops for a minute after `building`: long enough to kill it mid-run.
      JOB_TEST_PAUSE: 'build_after_building:60000',
      LOG_REQUESTS: '0',
      ...FAST_SETUP_RECHECK,
    };
    // The first starts alone (it migrates), then two more together.
    servers.push(await spawnServer({ env }));
    servers.push(...(await Promise.all([1, 2].map(() => spawnServer({ env })))));
    client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
  }, 180_000);

  // Registered first, so it runs after the hook below (after-hooks run as a stack), even if that one fails.
  afterAll(() => release?.());
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await client?.end();
    await receiver?.close();
    await dns?.close();
    await rdap?.close();
    await database?.drop();
    rmSync(outbox, { recursive: true, force: true });
  }, 60_000);

  it('the job of a SIGKILLed instance completes on another within the lease, and its build, event, delivery and monitoring day are recorded once', async () => {
    const demo = await runAdmin(['seed-demo', '--shared-demo-token'], { DATABASE_URL: database.databaseUrl });
    const me = customer(String(demo.key));
    await me.saveCard(servers[0]!);
    await me.addWebhook(servers[1]!, receiver.url, ['domain.live']);
    await me.placeOrder(servers[2]!, [domain], 'killed-worker-1');

    // Some instance takes the build and stops in it, holding the job.
    const held = await waitFor(
      'the build job locked by a worker',
      async () => {
        const { rows } = await client.query(`select j.id, j.locked_by, h.instance from graphile_worker.jobs j
        join worker_heartbeats h on h.worker_id = j.locked_by where j.task_identifier = 'build_domain' and j.locked_at is not null`);
        return rows[0] as { id: string; locked_by: string; instance: string } | undefined;
      },
      30_000,
    );
    const victim = servers.find((s) => held.instance.endsWith(` pid ${s.pid}`));
    expect(victim, `the worker's instance "${held.instance}" is one of ours`).toBeDefined();
    const state = async () => (await client.query('select build_state from domains where domain = $1', [domain])).rows[0]?.build_state;
    // The job is locked a moment before the build moves the domain to building (then pauses there).
    expect(await waitFor('the domain to be building', async () => ((await state()) === 'building' ? 'building' : null), 10_000)).toBe('building');

    // While its instance lives (heartbeats fresh), a job held past the lease is left alone.
    await waitFor(
      'the job held longer than the lease',
      async () => {
        const { rows } = await client.query('select now() - locked_at > make_interval(secs => $2::float8) as old from graphile_worker.jobs where id = $1', [
          held.id,
          (LEASE_MS + 1500) / 1000,
        ]);
        return rows[0]?.old === true;
      },
      20_000,
    );
    const still = await client.query('select locked_by from graphile_worker.jobs where id = $1', [held.id]);
    expect(still.rows[0]?.locked_by).toBe(held.locked_by);

    const killedAt = Date.now();
    victim!.signal('SIGKILL');
    expect(await victim!.exited).toBe('SIGKILL');
    await waitFor('the build finished', async () => (await state()) === 'waiting_for_dns', 30_000);
    const recoveredMs = Date.now() - killedAt;
    console.info(`killed-worker: SIGKILL to the build finished on another instance in ${recoveredMs} ms (JOB_LEASE_MS ${LEASE_MS})`);
    // Not at once (the heartbeat must go stale first). What freed the job is our lease, not
    // graphile-worker's four-hour lock timeout: the survivors' log says they unlocked the victim's
    // worker (checked below; a log line, not a stopwatch: how long it took is printed above).
    expect(recoveredMs).toBeGreaterThanOrEqual(LEASE_MS - 1000);

    // The owner publishes what the setup asks for; the jobs' next check puts the domain live.
    const setup = await me.call(servers.find((s) => s !== victim)!, 'GET', `/v1/domains/${domain}/setup`);
    expect(setup.status).toBe(200);
    dns.setRecords([...jobsZone([]), ...publishedSetup(setup.body.records)]);
    await waitFor('the domain live', async () => (await state()) === 'live', 30_000);

    const survivors = servers.filter((s) => s !== victim);
    const unlocked = survivors.flatMap((s) => s.logLines()).filter((l) => String(l.msg ?? l.message).startsWith('unlocked the jobs of workers'));
    expect(unlocked.length).toBeGreaterThanOrEqual(1);
    expect(unlocked.flatMap((l) => l.workers as string[])).toContain(held.locked_by);

    // Recorded once: one domain.live event, one delivery of it, no build job left; the first
    // monitoring run (queued by the build) records one day.
    const events = await client.query(`select id from events where type = 'domain.live' and data::jsonb ->> 'domain' = $1`, [domain]);
    expect(events.rows).toHaveLength(1);
    await waitFor('the domain.live delivery', async () => liveDeliveries(receiver.received, domain).length > 0);
    await waitFor(
      'a day of analytics',
      async () => (await client.query('select 1 from domain_analytics a join domains d on d.id = a.domain_id where d.domain = $1', [domain])).rows.length > 0,
      30_000,
    );
    // No due build, fan-out, delivery or monitoring job left: one that could deliver or record again has run.
    await waitFor('no due job left that could repeat something', async () => {
      const { rows } = await client.query(`select count(*)::int as n from graphile_worker.jobs
        where task_identifier in ('build_domain', 'fan_out_event', 'deliver_webhook', 'monitor_domain') and run_at <= now()`);
      return rows[0].n === 0;
    });
    expect(liveDeliveries(receiver.received, domain).map((e) => e.id)).toEqual([events.rows[0].id]);
    const days = await client.query('select count(*)::int as n from domain_analytics a join domains d on d.id = a.domain_id where d.domain = $1', [domain]);
    expect(days.rows[0].n).toBe(1);
    const runs = await client.query('select count(*)::int as n from monitor_runs r join domains d on d.id = r.domain_id where d.domain = $1', [domain]);
    expect(runs.rows[0].n).toBe(1);
    const left = await client.query(`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'build_domain'`);
    expect(left.rows[0].n).toBe(0);
    // The dead worker's heartbeat stopped; the survivors' are fresh.
    const beats = await client.query(`select worker_id, now() - last_seen < make_interval(secs => $1::float8) as fresh from worker_heartbeats`, [
      LEASE_MS / 1000,
    ]);
    expect(beats.rows.find((r) => r.worker_id === held.locked_by)?.fresh).toBe(false);
    // Two survivors, each with two worker pools (jobs and webhooks).
    expect(beats.rows.filter((r) => r.fresh)).toHaveLength(4);
    // The operator sees the same in `admin jobs`: the killed pool is listed as dead, not alive.
    const queue = await runAdmin(['jobs'], { DATABASE_URL: database.databaseUrl, JOB_LEASE_MS: String(LEASE_MS) });
    const workers = queue.workers as { worker_id: string; instance: string; state: string; last_seen_seconds_ago: number; running: number }[];
    expect(workers.find((w) => w.worker_id === held.locked_by)).toMatchObject({ instance: held.instance, state: 'dead', running: 0 });
    expect(workers.filter((w) => w.state === 'alive')).toHaveLength(4);
    expect(queue.workers_alive).toBe(4);
    expect(workers.find((w) => w.worker_id === held.locked_by)!.last_seen_seconds_ago).toBeGreaterThan(LEASE_MS / 1000);
  }, 150_000);
});
