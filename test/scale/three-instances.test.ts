import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { oneAtATime } from '../support/one-at-a-time.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../support/test-database.js';
import { runAdmin, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { verificationRecords } from '../support/domain-verification.js';
import { operationTable } from '../../operations/operation-table.js';

/**
 * Three real server processes on one PostgreSQL database: what the service keeps in the database
 * (keys, rate-limit counters, idempotency records, the sandbox processor's charges) must hold across
 * instances. PGlite serves one process, so this file needs DATABASE_URL.
 */
const reason = usingPostgres ? '' : ' (skipped: needs DATABASE_URL, since PGlite serves one process)';

describe.skipIf(!usingPostgres)(`three instances on one PostgreSQL${reason}`, () => {
  let database: TestDatabase;
  let release: (() => void) | undefined;
  let dns: TestDnsServer;
  let servers: SpawnedServer[] = [];
  const env = () => ({ DATABASE_URL: database.databaseUrl!, DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '500', DNS_TRIES: '1' });

  beforeAll(async () => {
    // Three server processes, each with its pools: never beside the other file that starts several
    // (test/support/one-at-a-time.ts), or together they take PostgreSQL's 100 connections.
    release = await oneAtATime('postgres-instances');
    database = await createTestDatabase({ empty: true });
    dns = await startTestDnsServer({ records: [] });
    // All three start at once on an empty database: migrations run once under the migrator's advisory lock.
    servers = await Promise.all([0, 1, 2].map(() => spawnServer({ env: env() })));
  }, 180_000);

  // Registered first, so it runs after the hook below (after-hooks run as a stack), even if that one fails.
  afterAll(() => release?.());
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await dns?.close();
    await database?.drop();
  }, 60_000);

  const get = (server: SpawnedServer, path: string, key: string) => fetch(server.apiUrl + path, { headers: { authorization: `Bearer ${key}` } });

  it('migrations ran exactly once although the three instances started together', async () => {
    // kysely_migration's name is its primary key, so counting its rows cannot show a second run. Each
    // instance logs the migrations it applied ("database migrated"): one applied them all, in order,
    // the other two found nothing left to apply.
    const appliedBy = servers.map((server) =>
      server
        .logLines()
        .filter((line) => line.message === 'database migrated')
        .flatMap((line) => line.migrations as string[]),
    );
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(rows.length).toBeGreaterThan(0);
      expect(appliedBy.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, 0, rows.length]);
      expect(appliedBy.flat()).toEqual(rows.map((r) => r.name));
    } finally {
      await client.end();
    }
  });

  it('/readyz on each instance reports the database ready', async () => {
    for (const server of servers) {
      for (const url of [server.apiUrl, server.publicUrl]) {
        const response = await fetch(`${url}/readyz`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ status: 'ready', database: 'postgres' });
      }
    }
  });

  it('the reading allowance (240 a minute per key) holds in total: 300 reads spread over three instances and two doors, exactly 240 succeed', async () => {
    const demo = await runAdmin(['seed-demo', '--shared-demo-token'], { DATABASE_URL: database.databaseUrl });
    const key = String(demo.key);
    const statuses: number[] = [];
    const bodies: Record<string, unknown>[] = [];
    let next = 0;
    // Twelve requests in flight at a time, round-robin over the instances; every other one on /graphql.
    const viaGraphql = (server: SpawnedServer) =>
      fetch(`${server.apiUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ paymentMethod { onFile } }' }),
      });
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (next < 300) {
          const i = next++;
          const response = i % 2 === 0 ? await get(servers[i % 3]!, '/v1/payment-method', key) : await viaGraphql(servers[i % 3]!);
          statuses.push(response.status);
          const body = await response.json();
          if (response.status !== 200) bodies.push(body);
        }
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(240);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    for (const body of bodies) {
      expect(body.code).toBe('rate_limited');
      expect(String(body.detail)).toMatch(/240 per minute per key/);
    }
  }, 120_000);

  it('a key revoked by the operator is refused by every instance at its next request', async () => {
    const demo = await runAdmin(['seed-demo', '--shared-demo-token'], { DATABASE_URL: database.databaseUrl });
    const key = String(demo.key);
    for (const server of servers) expect((await get(server, '/v1/portal/dashboard', key)).status).toBe(200);
    await runAdmin(['revoke-key', '--key-id', String(demo.key_id)], { DATABASE_URL: database.databaseUrl });
    for (const server of servers) {
      const response = await get(server, '/v1/portal/dashboard', key);
      expect(response.status).toBe(401);
      expect(typeof (await response.json()).detail).toBe('string');
    }
  }, 60_000);

  const ordering = operationTable.some((r) => r.name === 'place_order') && operationTable.some((r) => r.name === 'create_card_setup_link');

  it.skipIf(!ordering)(
    '30 concurrent placements with one Idempotency-Key, spread over three instances, place one order and charge once',
    async () => {
      const demo = await runAdmin(['seed-demo', '--shared-demo-token'], { DATABASE_URL: database.databaseUrl });
      const key = String(demo.key);
      const accountId = Number(demo.account_id);
      const domain = `scale-${Date.now().toString(36)}.test`;
      dns.setRecords([{ name: domain, type: 'NS', data: `ns1.${domain}` }, ...verificationRecords([domain])]);
      const post = (server: SpawnedServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(server.apiUrl + path, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });

      // The demo account has no card: save the sandbox test card through the setup link, as a person would.
      const link = await post(servers[0]!, '/v1/payment-method/setup-link', {
        success_url: 'https://example.com/saved',
        cancel_url: 'https://example.com/cancel',
      });
      expect(link.status).toBe(200);
      const { url } = (await link.json()) as { url: string };
      const token = new URL(url).searchParams.get('token')!;
      const saved = await fetch(`${servers[1]!.apiUrl}/sandbox/card?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, card_number: '4242424242424242', name: 'Scale Test' }).toString(),
      });
      expect(saved.status).toBe(303);
      expect((await (await get(servers[2]!, '/v1/payment-method', key)).json()).on_file).toBe(true);

      const order = { sku: 'google-inbox-unwarmed', domains: [{ domain, mailboxes: [{ first_name: 'Alex', last_name: 'Morgan', local_part: 'alex' }] }] };
      const idempotencyKey = `scale-${Date.now()}-one-key`;
      const answers = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const response = await post(servers[i % 3]!, '/v1/orders', order, { 'idempotency-key': idempotencyKey });
          return { status: response.status, body: (await response.json()) as Record<string, any> };
        }),
      );
      const placed = answers.filter((a) => a.status === 200);
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      expect(placed.length).toBeGreaterThan(0);
      expect(new Set(placed.map((a) => a.body.order_id)).size).toBe(1);
      expect(placed.filter((a) => a.body.replayed === false)).toHaveLength(1);
      // Any answer that is not the order is a 409 "still in progress", never a second order.
      for (const other of answers.filter((a) => a.status !== 200)) expect(other.status).toBe(409);

      const client = new pg.Client({ connectionString: database.databaseUrl });
      await client.connect();
      try {
        const orders = await client.query('select o.id from orders o join domains d on d.order_id = o.id where d.domain = $1', [domain]);
        expect(orders.rows).toHaveLength(1);
        const charges = await client.query(
          'select s.* from sandbox_subscriptions s join accounts a on a.processor_customer_id = s.customer_id where a.id = $1',
          [accountId],
        );
        expect(charges.rows).toHaveLength(1);
      } finally {
        await client.end();
      }
    },
    120_000,
  );
});
