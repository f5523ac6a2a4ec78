import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/open-database.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { verificationRecords } from '../support/domain-verification.js';
import { createTestDatabase, usingPostgres, type TestDatabase, migratedDataDir } from '../support/test-database.js';
import { runAdmin, spawnServer, type SpawnedServer } from '../support/spawn-server.js';

// Kill -9 between the processor's charge and the order's commit (SERVICE_FAULT=exit_after_charge),
// restart, retry with the same Idempotency-Key: one order, one charge. Real processes, sandbox
// processor, on PostgreSQL when DATABASE_URL is set, else on PGlite in a data folder (the second
// process takes over the dead one's lock). The rows are counted on both: on PGlite while no server
// holds the folder (after the crash, and after the second server stops).
let dns: TestDnsServer;
let database: TestDatabase;
let dataDir: string;
let env: Record<string, string | undefined>;
const servers: SpawnedServer[] = [];

beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      { name: 'crash-proof-outreach.com', type: 'NS', data: 'ns1.dns-host.net' },
      { name: 'crash-proof-outreach.com', type: 'NS', data: 'ns2.dns-host.net' },
      ...verificationRecords(['crash-proof-outreach.com']),
    ],
  });
  database = await createTestDatabase();
  dataDir = usingPostgres ? mkdtempSync(join(tmpdir(), 'svc-crash-')) : migratedDataDir('svc-crash-');
  env = {
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: '400',
    DNS_TRIES: '1',
    IDEMPOTENCY_CLAIM_MS: '3000',
    LOG_LEVEL: 'silent',
    ...(usingPostgres ? { DATABASE_URL: database.databaseUrl } : { DATA_DIR: dataDir }),
  };
});

afterAll(async () => {
  for (const server of servers) await server.stop(2000).catch(() => undefined);
  await dns?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}): Promise<SpawnedServer> {
  const server = await spawnServer({ env: { ...env, ...extra } });
  servers.push(server);
  return server;
}

/** The account's orders and the sandbox processor's charges. On PGlite, call it while no server runs. */
async function counts(accountId: number): Promise<{ orders: number; charges: number }> {
  const opened = await openDatabase(usingPostgres ? { databaseUrl: database.databaseUrl, poolSize: 1 } : { dataDir });
  try {
    const orders = await opened.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    const charges = await opened.db
      .selectFrom('sandbox_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { orders: Number(orders.n), charges: Number(charges.n) };
  } finally {
    await opened.close();
  }
}

describe('a crash between the charge and the commit', () => {
  it('the retry with the same key after a restart records exactly one order and charges once', async () => {
    const demo = await runAdmin(['seed-demo', '--shared-demo-token'], env);
    const key = String(demo.key);
    const api = (server: SpawnedServer, path: string, init: RequestInit = {}) =>
      fetch(server.apiUrl + path, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      });

    // Counted before any server holds the database (the seed-demo command has exited).
    const before = await counts(Number(demo.account_id));

    // First instance: save a card through the sandbox page, then place with the fault armed.
    const first = await start({ SERVICE_FAULT: 'exit_after_charge' });
    const link = await (
      await api(first, '/v1/payment-method/setup-link', {
        method: 'POST',
        body: JSON.stringify({ success_url: 'https://example.com/ok', cancel_url: 'https://example.com/no' }),
      })
    ).json();
    const saved = await fetch(link.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242424242424242&expiry=12%2F34&cvc=123&name=Ada',
    });
    expect(saved.status).toBe(303);

    const body = JSON.stringify({
      sku: 'google-inbox-unwarmed',
      domains: [
        { domain: 'crash-proof-outreach.com', forward_to: 'main-site.com', mailboxes: [{ first_name: 'Ada', last_name: 'Lovelace', local_part: 'ada' }] },
      ],
    });
    const place = (server: SpawnedServer) => api(server, '/v1/orders', { method: 'POST', headers: { 'idempotency-key': 'crash-test-key-0001' }, body });
    await expect(place(first)).rejects.toThrow(); // the connection dies with the process
    expect(await first.exited).toBe('SIGKILL');
    // The charge was made and the order not recorded: the case the retry must mend.
    expect(await counts(Number(demo.account_id))).toEqual({ orders: before.orders, charges: before.charges + 1 });

    // Second instance, no fault: the retry with the same key finds the processor's charge.
    const second = await start();
    const retried = await place(second);
    expect(retried.status).toBe(200);
    const order = await retried.json();
    expect(order.charged.amount).toBeGreaterThan(0);
    const orders = await (await api(second, '/v1/portal/orders')).json();
    expect(orders.orders.filter((o: { reference: string }) => o.reference === order.reference)).toHaveLength(1);
    const again = await (await place(second)).json();
    expect(again.replayed).toBe(true);
    expect(again.order_id).toBe(order.order_id);
    expect(await second.stop()).toBe(0);
    expect(await counts(Number(demo.account_id))).toEqual({ orders: before.orders + 1, charges: before.charges + 1 });
  }, 90_000);
});
