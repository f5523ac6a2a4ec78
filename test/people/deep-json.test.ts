import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { seedDemo } from '../../admin/seed-demo.js';
import { DEMO_VERIFICATION_TOKEN } from '../../resolvers/orders/verification-record.js';
import { createTestDatabase } from '../support/test-database.js';
import { openDatabase } from '../../db/open-database.js';
import { migrateToLatest } from '../../db/migrate.js';

/** 10,000 levels of arrays inside a field: about 20 KB, far under the body limit. */
const deep = (field: string) => `{"${field}": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;

const REST_PATHS: [string, string, string][] = [
  ['POST', '/v1/orders', 'domains'],
  ['POST', '/v1/orders/preview', 'domains'],
  ['PUT', '/v1/alerts/recipients', 'emails'],
  ['POST', '/v1/webhooks', 'events'],
  ['POST', '/v1/portal/requests', 'subject'],
];

async function expectRefused(answer: Response, where: string) {
  const text = await answer.text();
  expect(answer.status, `${where}: ${text.slice(0, 200)}`).toBe(400);
  expect(text, where).toMatch(/nests arrays or objects more than 64 levels deep; send a flatter body/);
  // One code on every door and at the socket alike.
  expect(text, where).toContain('json_too_deep');
  expect(text, where).not.toMatch(/Maximum call stack|RangeError|stack/i);
}

/** The same requests at the socket (serve-http's input hygiene) and handed to each door in-process (its own parse). */
for (const socketless of [false, true]) {
  describe(`JSON nested 10,000 deep ${socketless ? 'handed to the doors in-process' : 'over a socket'}`, () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService({ socketless, rateLimits: { change: 1000, read: 1000 } });
    });
    afterAll(async () => {
      await service?.close();
    });

    it('is a 400 in our words on the REST paths, never a 500', async () => {
      for (const [method, path, field] of REST_PATHS) {
        await expectRefused(
          await service.api(path, { method, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-json-0001' }, body: deep(field) }),
          `${method} ${path}`,
        );
      }
    });

    it('is a 400 in our words on the account MCP, /graphql and /auth/sign-in', async () => {
      const mcpBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_alert_recipients","arguments":${deep('emails')}}}`;
      await expectRefused(
        await service.api('/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: mcpBody,
        }),
        'account MCP',
      );
      const graphqlBody = `{"query":"mutation($i: AlertRecipientsInput!) { setAlertRecipients(input: $i) { emails } }","variables":{"i":${deep('emails')}}}`;
      await expectRefused(await service.api('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: graphqlBody }), '/graphql');
      await expectRefused(
        await service.api('/auth/sign-in', { method: 'POST', key: null, headers: { 'content-type': 'application/json' }, body: deep('email') }),
        '/auth/sign-in',
      );
    });

    it('still takes a body nested a few levels, as ours are', async () => {
      const answer = await service.api('/v1/alerts/recipients', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['ops@example.com'] }),
      });
      expect(answer.status).toBe(200);
    });
  });
}

describe('seed-demo accounts', () => {
  it('only the first demo account keeps the public fixed verification token; later ones get their own', async () => {
    const test = await createTestDatabase();
    const database = await openDatabase({ databaseUrl: test.databaseUrl, dataDir: test.dataDir, pglite: await test.pglite() });
    try {
      await migrateToLatest(database.db);
      const accounts = [await seedDemo(database.db, 'test'), await seedDemo(database.db, 'test'), await seedDemo(database.db, 'test')];
      const tokens = await database.db
        .selectFrom('domain_verification_tokens')
        .select(['account_id', 'token'])
        .where(
          'account_id',
          'in',
          accounts.map((a) => a.accountId),
        )
        .orderBy('account_id')
        .execute();
      expect(tokens.map((t) => t.token === DEMO_VERIFICATION_TOKEN)).toEqual([true, false, false]);
      expect(new Set(tokens.map((t) => t.token)).size).toBe(3);
      expect(tokens[1]!.token).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await database.close();
      await test.drop();
    }
  });
});
