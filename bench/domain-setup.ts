import { SETUP_DOMAIN_COLUMNS } from '../db/domains.js';
import { randomUUID } from 'node:crypto';
import { readSettings, serviceConfigFromEnv } from '../config/settings.js';
import { openDatabase, type OpenedDatabase } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDemo, type DemoAccount } from '../admin/seed-demo.js';
import { createServices } from '../server/create-services.js';
import { createContext, type Services } from '../resolvers/context.js';
import { makeRsaDkimKey } from '../clients/mailboxes/provisioning-adapter.js';
import { jobCheckContext } from '../jobs/job-check-context.js';
import { storeDkimKey } from '../resolvers/domains/setup/dkim-keys.js';
import { computeDomainSetup, type SetupDomainRow } from '../resolvers/domains/setup/compute-domain-setup.js';
import { recordVerified } from '../resolvers/orders/domain-verification.js';
import { createDnsConnection } from '../resolvers/domains/publishing/dns-connections.js';
import { applyDomainSetup } from '../resolvers/domains/publishing/apply-domain-setup.js';
import { DEMO_VERIFICATION_TOKEN, verificationValue } from '../resolvers/orders/verification-record.js';
import { startTestDnsServer, type ZoneRecord } from '../test/support/dns-server.js';
import { startBindServer } from '../test/support/bind-server.js';
import { verificationRecords } from '../test/support/domain-verification.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT, googleZoneLines } from '../test/support/google-mail-zone.js';
import { publishedSetup } from '../test/jobs/jobs-zone.js';
import { createTestDatabase } from '../test/support/test-database.js';
import { provideOutsideVitest } from './outside-vitest.js';

/**
 * (i) Setup check of 100 domains: computeDomainSetup (MX, SPF with its lookup count, DKIM, DMARC,
 * forwarding, proof of control) for 100 built domains, each through a fresh check context as the
 * jobs use, 4 at a time, against the local DNS server holding every answer back RTT_MS, first with
 * nothing published and then with every record published: DNS questions asked and wall time.
 * (ii) Apply on 100 domains against a real BIND: POST .../setup/apply's resolver (setup check, a
 * signed read of each wanted name, one TSIG-signed UPDATE, the setup checked again) for 100 domains,
 * each its own zone, 4 at a time; the service's own lookups go to the same BIND. Wall time and
 * changes; then the same again, which must change nothing.
 */
export interface DomainSetupFigures {
  readonly check: {
    readonly domains: number;
    readonly rtt_ms: number;
    readonly missing: { readonly dns_questions: number; readonly wall_ms: number };
    readonly verified: { readonly dns_questions: number; readonly wall_ms: number; readonly all_verified: boolean };
    /**
     * The same published check reading each domain's names from its name server (the zone itself)
     * rather than the resolver, and comparing with the resolver for caches_may_hold_until; the ratio
     * is to `verified` (the cached reads), in the same run.
     */
    readonly authoritative: {
      readonly dns_questions: number;
      readonly wall_ms: number;
      readonly all_verified: boolean;
      readonly questions_ratio: number;
      readonly wall_ratio: number;
    };
  };
  readonly apply: {
    readonly domains: number;
    readonly changes: number;
    readonly wall_ms: number;
    readonly ms_per_domain: number;
    readonly live: number;
    readonly second_changes: number;
    readonly second_wall_ms: number;
  };
}

const DOMAINS = 100;
const CONCURRENCY = 4;
const RTT_MS = 30;

interface Fixture {
  readonly database: OpenedDatabase;
  readonly services: Services;
  readonly demo: DemoAccount;
  readonly rows: SetupDomainRow[];
  close(): Promise<void>;
}

/** A database with the demo account, one order of `names` built (a DKIM key each) and verified as the account's. */
async function fixture(names: readonly string[], env: Record<string, string>): Promise<Fixture> {
  const test = await createTestDatabase();
  const database = await openDatabase({ databaseUrl: test.databaseUrl, dataDir: 'memory' });
  await migrateToLatest(database.db);
  const services = createServices(database, serviceConfigFromEnv({ LOG_LEVEL: 'silent', ...env }), readSettings({ LOG_LEVEL: 'silent', ...env }), {
    googleTenancy: { probe: async () => 'unknown' },
  });
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
      reference: 'ORD-SETUP-BENCH',
      subscription_id: 'sbx_sub_setup_bench',
      status: 'active',
      quantity: names.length,
      unit_amount: 350,
      currency: 'usd',
      interval: 'month',
      processor_subscription_id: 'sbx_sub_setup_bench',
      first_invoice: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const inserted = await database.db
    .insertInto('domains')
    .values(
      names.map((domain) => ({
        account_id: demo.accountId,
        order_id: order.id,
        domain,
        build_state: 'waiting_for_dns',
        forward_to: 'main-site.com',
        workspace_id: null,
        watched_since: null,
        mailboxes_created_at: new Date(),
      })),
    )
    .returning('id')
    .execute();
  // One key pair for all (2048-bit generation is not what is measured); each sealed for its own row.
  const pair = await makeRsaDkimKey('google');
  for (const { id } of inserted) await storeDkimKey(database.db, services.config.secretsKey, id, pair);
  await recordVerified(database.db, demo.accountId, names, new Date());
  const rows = await database.db
    .selectFrom('domains')
    .select([...SETUP_DOMAIN_COLUMNS])
    .where('account_id', '=', demo.accountId)
    .orderBy('id')
    .execute();
  return {
    database,
    services,
    demo,
    rows,
    close: async () => {
      await database.close();
      await test.drop();
    },
  };
}

async function inParallel<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<number> {
  const pending = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = pending.shift(); item !== undefined; item = pending.shift()) await run(item);
    }),
  );
  return Math.round(performance.now() - started);
}

async function benchCheck(): Promise<DomainSetupFigures['check']> {
  const names = Array.from({ length: DOMAINS }, (_, i) => `setup-bench-${i}.com`);
  const base: ZoneRecord[] = [
    ...names.flatMap((name): ZoneRecord[] => [{ name, type: 'NS', data: 'ns1.dns-host.net' }]),
    ...verificationRecords(names),
    ...GOOGLE_SPF_FLAT,
    ...GOOGLE_MX_HOSTS,
    // The domains' name server is this same server (DNS_AUTHORITATIVE_PORT below), which answers with AA.
    { name: 'ns1.dns-host.net', type: 'A', data: '127.0.0.1' },
  ];
  const dns = await startTestDnsServer({ records: base, delayMs: RTT_MS });
  const f = await fixture(names, {
    DNS_SERVERS: dns.server,
    DNS_AUTHORITATIVE_PORT: String(dns.port),
    DNS_TIMEOUT_MS: '2000',
    DNS_TRIES: '1',
    FORWARD_TARGET: '192.0.2.80',
  });
  try {
    /** `cached`: every name through the resolver, as before the setup read the zone itself. */
    const checkAll = async (cached: boolean) => {
      const before = dns.questions.length;
      let verified = 0;
      const wall = await inParallel(f.rows, async (row) => {
        const { checks } = jobCheckContext(f.services);
        const zone = cached ? { zone: { dns: checks.dns, readFrom: 'the resolver' } } : {};
        const setup = await computeDomainSetup({ db: f.database.db, config: f.services.config, checks, now: () => new Date(), ...zone }, row);
        if (setup.ready) verified += 1;
      });
      return { dns_questions: dns.questions.length - before, wall_ms: wall, verified };
    };
    const missing = await checkAll(true);
    // Publish every domain's wanted records, as its owner would, then check again.
    const published: ZoneRecord[] = [];
    for (const row of f.rows) {
      const { checks } = jobCheckContext(f.services);
      const setup = await computeDomainSetup({ db: f.database.db, config: f.services.config, checks, now: () => new Date() }, row);
      published.push(...publishedSetup(setup.records.map((r) => ({ ...r, priority: r.priority ?? null }))));
    }
    dns.setRecords([...base, ...published]);
    const verified = await checkAll(true);
    const authoritative = await checkAll(false);
    const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 1)) * 100) / 100;
    return {
      domains: DOMAINS,
      rtt_ms: RTT_MS,
      missing: { dns_questions: missing.dns_questions, wall_ms: missing.wall_ms },
      verified: { dns_questions: verified.dns_questions, wall_ms: verified.wall_ms, all_verified: verified.verified === DOMAINS },
      authoritative: {
        dns_questions: authoritative.dns_questions,
        wall_ms: authoritative.wall_ms,
        all_verified: authoritative.verified === DOMAINS,
        questions_ratio: ratio(authoritative.dns_questions, verified.dns_questions),
        wall_ratio: ratio(authoritative.wall_ms, verified.wall_ms),
      },
    };
  } finally {
    await f.close();
    await dns.close();
  }
}

async function benchApply(): Promise<DomainSetupFigures['apply']> {
  const names = Array.from({ length: DOMAINS }, (_, i) => `apply-bench-${i}.com`);
  const proof = `_inbox-verification IN TXT "${verificationValue(DEMO_VERIFICATION_TOKEN)}"`;
  const bind = await startBindServer({
    resolver: true,
    zones: [
      ...names.map((name) => ({ name, records: [proof, '@ IN TXT "v=spf1 ip4:192.0.2.25 -all"', '@ IN MX 10 mx.other-provider.test.'] })),
      { name: 'google.com', records: googleZoneLines([...GOOGLE_SPF_FLAT, ...GOOGLE_MX_HOSTS]) },
    ],
  });
  const f = await fixture(names, {
    DNS_SERVERS: `127.0.0.1:${bind.port}`,
    DNS_TIMEOUT_MS: '3000',
    DNS_TRIES: '2',
    FORWARD_TARGET: '192.0.2.80',
    DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
    DNS_PUBLISH_TIMEOUT_MS: '5000',
  });
  try {
    const ctx = () => createContext(f.services, { authorization: `Bearer ${f.demo.key}`, requestId: randomUUID(), clientAddress: '127.0.0.1', door: 'rest' });
    const connection = await createDnsConnection(
      { kind: 'rfc2136', server: '127.0.0.1', port: bind.port, keyName: bind.key.name, algorithm: bind.key.algorithm, secret: bind.key.secret },
      ctx(),
    );
    let changes = 0;
    let live = 0;
    const wall = await inParallel(names, async (domain) => {
      const applied = await applyDomainSetup(domain, connection.connectionId, false, ctx());
      changes += applied.changes.length;
      if (applied.buildState === 'live') live += 1;
    });
    let secondChanges = 0;
    const secondWall = await inParallel(names, async (domain) => {
      secondChanges += (await applyDomainSetup(domain, connection.connectionId, false, ctx())).changes.length;
    });
    return {
      domains: DOMAINS,
      changes,
      wall_ms: wall,
      ms_per_domain: Math.round((wall * CONCURRENCY) / DOMAINS),
      live,
      second_changes: secondChanges,
      second_wall_ms: secondWall,
    };
  } finally {
    await f.close();
    await bind.stop();
  }
}

export async function benchDomainSetup(): Promise<DomainSetupFigures> {
  process.env.LOG_LEVEL = 'silent';
  return { check: await benchCheck(), apply: await benchApply() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Outside vitest: the transpiled copy and the migrated templates the test helpers read (bench/outside-vitest.ts).
  const teardown = await provideOutsideVitest();
  try {
    console.log(JSON.stringify(await benchDomainSetup(), null, 1));
  } finally {
    await teardown();
  }
}
