import { readSettings } from '../config/settings.js';
import { openDatabase, type OpenedDatabase } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDemo } from '../admin/seed-demo.js';
import { serviceConfigFromEnv } from '../config/settings.js';
import { createServices } from '../server/create-services.js';
import { openGraphileQueue } from '../jobs/graphile-runner.js';
import { openInProcessQueue } from '../jobs/in-process-runner.js';
import { createSandboxAdapter } from '../clients/mailboxes/provisioning-adapter.js';
import { createAlertMailer } from '../clients/mail/create-alert-mailer.js';
import { monitorDomain, monitorSlot } from '../jobs/monitor-domain.js';
import { TASKS } from '../jobs/task-list.js';
import type { JobEnvironment, TaskFunction } from '../jobs/job-types.js';
import { startTestDnsServer } from '../test/support/dns-server.js';
import { dnsblTestPoints } from '../test/support/dnsbl-test-points.js';
import { rdapDomain, startTestRdapServer } from '../test/support/rdap-server.js';
import { createTestDatabase } from '../test/support/test-database.js';
import { builtDomainRecords } from '../test/jobs/jobs-zone.js';
import { provideOutsideVitest } from './outside-vitest.js';

/**
 * (i) Jobs per second through the queue: 2000 jobs of a real task (fan_out_event for an event that
 * is not there: one indexed read) run by graphile-worker on PostgreSQL (DATABASE_URL), or by the
 * in-process runner on embedded PGlite, at JOBS_CONCURRENCY 4 in one process.
 * (ii) Monitor cost per 100 domains: the monitor_domain task (grade, blocklist detail, one
 * transaction of records) for 100 live domains against a local DNS server that answers every
 * blocklist's test point, with RDAP from a local server: DNS questions and wall time, 4 at a time.
 */
export interface JobsFigures {
  readonly queue: { readonly runner: string; readonly jobs: number; readonly enqueue_per_second: number; readonly jobs_per_second: number };
  readonly monitor: {
    readonly domains: number;
    readonly dns_questions: number;
    readonly questions_per_domain: number;
    readonly wall_ms: number;
    readonly ms_per_domain_serial: number;
  };
}

const JOBS = 2000;
const DOMAINS = 100;
const CONCURRENCY = 4;

async function openBenchDatabase(): Promise<{ database: OpenedDatabase; url: string | undefined; drop: () => Promise<void> }> {
  const test = await createTestDatabase();
  const database = await openDatabase({ databaseUrl: test.databaseUrl, dataDir: 'memory' });
  await migrateToLatest(database.db);
  return {
    database,
    url: test.databaseUrl,
    drop: async () => {
      await database.close();
      await test.drop();
    },
  };
}

async function benchQueue(): Promise<JobsFigures['queue']> {
  process.env.LOG_LEVEL = 'silent';
  const { database, url, drop } = await openBenchDatabase();
  const queue = url ? await openGraphileQueue(url, { leaseMs: 60_000 }) : openInProcessQueue(database.db, 20);
  try {
    const enqueueStarted = performance.now();
    for (let i = 0; i < JOBS; i++) await queue.enqueue('fan_out_event', { eventId: `evt_missing_${i}` });
    const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
    const env = { db: database.db, faults: new Set<string>() } as unknown as JobEnvironment;
    const started = performance.now();
    await queue.startWorkers([{ name: 'jobs', tasks: TASKS, concurrency: CONCURRENCY }], () => env);
    for (;;) {
      const s = await queue.state();
      if (s.waiting + s.running + s.retrying === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      runner: url ? 'graphile-worker (PostgreSQL)' : 'in-process (PGlite)',
      jobs: JOBS,
      enqueue_per_second: Math.round(JOBS / enqueueSeconds),
      jobs_per_second: Math.round(JOBS / seconds),
    };
  } finally {
    await queue.stop();
    await drop();
  }
}

async function benchMonitor(): Promise<JobsFigures['monitor']> {
  const names = Array.from({ length: DOMAINS }, (_, i) => `watched-bench-${i}.com`);
  const dns = await startTestDnsServer({ records: [...dnsblTestPoints(), ...names.flatMap(builtDomainRecords)] });
  const rdap = await startTestRdapServer({
    tlds: ['com'],
    domains: Object.fromEntries(names.map((d) => [d, rdapDomain(d, 'Example Registrar, Inc.', '2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z')])),
  });
  const { database, drop } = await openBenchDatabase();
  try {
    const env = { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000', DNS_TRIES: '1', RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, LOG_LEVEL: 'silent' };
    const services = createServices(database, serviceConfigFromEnv(env), readSettings(env), { googleTenancy: { probe: async () => 'unknown' } });
    const demo = await seedDemo(database.db, 'test');
    const plan = await database.db
      .selectFrom('plans')
      .select('id')
      .where('account_id', '=', demo.accountId)
      .where('orderable', '=', true)
      .executeTakeFirstOrThrow();
    const order = await database.db
      .insertInto('orders')
      .values({
        account_id: demo.accountId,
        plan_id: plan.id,
        reference: 'ORD-BENCH',
        subscription_id: 'sbx_sub_bench',
        status: 'active',
        quantity: DOMAINS,
        unit_amount: 350,
        currency: 'usd',
        interval: 'month',
        processor_subscription_id: 'sbx_sub_bench',
        first_invoice: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = await database.db
      .insertInto('domains')
      .values(
        names.map((domain) => ({
          account_id: demo.accountId,
          order_id: order.id,
          domain,
          build_state: 'live',
          forward_to: null,
          workspace_id: null,
          watched_since: null,
        })),
      )
      .returning('id')
      .execute();
    const config = readSettings({}).jobs;
    const jobEnv: JobEnvironment = {
      db: database.db,
      services,
      config,
      adapter: createSandboxAdapter(0),
      mailer: createAlertMailer(null, 'bench@localhost', '/tmp/bench-outbox'),
      enqueue: async () => {},
      faults: new Set(),
    };
    const slot = monitorSlot(new Date(), config.monitorIntervalMs);
    const run = monitorDomain as TaskFunction;
    // One domain alone first: the serial cost of one run (and the warm-up).
    const serialStarted = performance.now();
    await run({ domainId: rows[0]!.id, slot }, jobEnv, { id: 'bench', attempt: 1 });
    const serialMs = performance.now() - serialStarted;
    const before = dns.questions.length;
    const started = performance.now();
    const pending = rows.slice(1).map((r) => r.id);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let id = pending.shift(); id !== undefined; id = pending.shift()) await run({ domainId: id, slot }, jobEnv, { id: 'bench', attempt: 1 });
      }),
    );
    const wallMs = ((performance.now() - started) * DOMAINS) / (DOMAINS - 1);
    const questions = Math.round(((dns.questions.length - before) * DOMAINS) / (DOMAINS - 1));
    const recorded = await database.db.selectFrom('monitor_runs').select('domain_id').execute();
    if (recorded.length !== DOMAINS) throw new Error(`${recorded.length} of ${DOMAINS} monitor runs were recorded.`);
    return {
      domains: DOMAINS,
      dns_questions: questions,
      questions_per_domain: Math.round(questions / DOMAINS),
      wall_ms: Math.round(wallMs),
      ms_per_domain_serial: Math.round(serialMs),
    };
  } finally {
    await drop();
    await dns.close();
    await rdap.close();
  }
}

export async function benchJobs(): Promise<JobsFigures> {
  return { queue: await benchQueue(), monitor: await benchMonitor() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Outside vitest: the transpiled copy and the migrated templates the test helpers read (bench/outside-vitest.ts).
  const teardown = await provideOutsideVitest();
  try {
    console.log(JSON.stringify(await benchJobs(), null, 1));
  } finally {
    await teardown();
  }
}
