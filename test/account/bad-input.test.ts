import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { operationTable } from '../../operations/operation-table.js';
import { startTestService, graphql, type TestService } from '../support/test-service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ rateLimits: { read: 100_000, change: 100_000 } });
});
afterAll(async () => {
  await service?.close();
});

async function expectRefusal(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(10);
  return body;
}

describe('refusals at the door', () => {
  it('an unknown path is a 404 with a detail', async () => {
    await expectRefusal(await service.api('/v1/portal/nope'), 404);
    await expectRefusal(await service.api('/'), 404);
  });

  it('a wrong method is a 405 naming the allowed ones in Allow', async () => {
    const response = await service.api('/v1/portal/orders', { method: 'DELETE' });
    expect(response.headers.get('allow')).toBe('GET');
    await expectRefusal(response, 405);
  });

  it('a body over the limit is a 413', async () => {
    const response = await service.api('/v1/portal/dashboard', { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) });
    await expectRefusal(response, 413);
  });

  it('a period named like a property every object has (toString, constructor) is refused as any unknown period', async () => {
    for (const period of ['toString', 'constructor', '__proto__']) {
      const response = await service.api(`/v1/portal/analytics?period=${period}`);
      expect(response.status).toBe(422);
      expect((await response.json()).detail).toMatch(/"period" must be one of 1d, 7d, 14d, 30d, 90d/);
    }
  });

  it('a repeated query parameter is a 422 (input not in the expected shape, SPEC 7)', async () => {
    await expectRefusal(await service.api('/v1/portal/analytics?period=7d&period=30d'), 422);
  });

  it('graphql-armor limits answer 400 with a sentence', async () => {
    const long = `query { paymentMethod { ${'onFile '.repeat(2100)} } }`;
    const aliases = `query { ${Array.from({ length: 60 }, (_, i) => `a${i}: paymentMethod { onFile }`).join(' ')} }`;
    const result = await graphql(service, aliases);
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]?.message).toMatch(/Aliases limit/);
    const tooLong = await graphql(service, long);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors?.[0]?.message).toMatch(/Token limit/i);
    expect((await graphql(service, 'query { paymentMethod { onFile } }')).body.errors).toBeUndefined();
  });
});

describe('batched GraphQL', () => {
  it('answers up to five operations in one request and refuses six with a sentence', async () => {
    const batch = (n: number) =>
      service.api('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(Array.from({ length: n }, () => ({ query: '{ paymentMethod { onFile } }' }))),
      });
    const five = await batch(5);
    expect(five.status).toBe(200);
    expect(await five.json()).toHaveLength(5);
    const six = await batch(6);
    expect(six.status).toBeGreaterThanOrEqual(400);
    expect(six.status).toBeLessThan(500);
    expect(JSON.stringify(await six.json())).toMatch(/limited to 5/i);
  });
});

describe('fuzzing every account path (fast-check)', () => {
  const rows = operationTable.filter((r) => r.listener === 'api');
  it('odd paths, query strings, headers and bodies never produce a 500 and always carry a detail', async () => {
    const text = fc.string({ maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...rows),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.dictionary(fc.constantFrom('period', 'x', 'domain', '__proto__', 'constructor'), text, { maxKeys: 3 }),
        fc.oneof(fc.json(), text, fc.constant('{"a":'), fc.constant('')),
        fc.oneof(
          fc.constant(''),
          text.map((s) => encodeURIComponent(s)),
          fc.constant('%E0%A4%A'),
          fc.constant('/..%2f'),
        ),
        async (row, method, query, body, suffix) => {
          const qs = new URLSearchParams(query).toString();
          const path = row.path.replace(/\{\w+\}/g, 'x') + suffix + (qs ? `?${qs}` : '');
          const response = await service.api(path, { method, headers: { 'content-type': 'application/json' }, ...(method === 'GET' ? {} : { body }) });
          expect(response.status).toBeLessThan(500);
          // A refusal carries a detail sentence; any other answer is read to its end.
          const refused = response.status >= 400;
          const answer = refused ? await response.json() : await response.arrayBuffer();
          const refusal = expect.objectContaining({ detail: expect.any(String) });
          const readToItsEnd = expect.any(ArrayBuffer);
          expect(answer, `${response.status} ${method} ${path}`).toEqual(refused ? refusal : readToItsEnd);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the database', () => {
  it('migrations create every table on an empty database', async () => {
    const tables = await service.services.db.introspection.getTables();
    const names = tables.map((t) => t.name);
    for (const table of [
      'accounts',
      'api_keys',
      'plans',
      'workspaces',
      'orders',
      'domains',
      'mailboxes',
      'change_requests',
      'request_replies',
      'invoices',
      'payment_methods',
      'referrals',
      'referral_earnings',
      'domain_analytics',
      'idempotency_records',
      'rate_limits',
    ]) {
      expect(names).toContain(table);
    }
  });
});

describe('requests Node refuses before any handler', () => {
  it('a URL over 16 KB is a 431 in JSON that says to POST the list instead', async () => {
    const response = await service.pub(`/.platform/functions/verify-email?emails=${'a@example.com,'.repeat(2000)}`);
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()).detail).toMatch(/POST/);
  });
});

describe('NUL, lone surrogates and bytes that are not UTF-8 are a 400, never reaching PostgreSQL', () => {
  const json = { 'content-type': 'application/json' };
  async function expectInvalidText(response: Response, where: RegExp) {
    const body = await expectRefusal(response, 400);
    expect(body.code).toBe('invalid_text');
    expect(body.detail).toMatch(where);
  }

  it('in a path parameter or the query string', async () => {
    await expectInvalidText(
      await service.api('/v1/portal/domains/a%00b.com/workspace', { method: 'PUT', headers: json, body: '{"workspace_id":null}' }),
      /NUL/,
    );
    await expectInvalidText(
      await service.api('/v1/portal/domains/%FFb.com/workspace', { method: 'PUT', headers: json, body: '{"workspace_id":null}' }),
      /not valid UTF-8/,
    );
    await expectInvalidText(await service.api('/v1/portal/dashboard?period=7d%00'), /NUL/);
  });

  it('in a JSON body on REST, /graphql and MCP', async () => {
    await expectInvalidText(await service.api('/v1/portal/workspaces', { method: 'POST', headers: json, body: '{"name":"Clients\\u0000"}' }), /NUL.*"name"/);
    await expectInvalidText(await service.api('/v1/portal/workspaces', { method: 'POST', headers: json, body: '{"name":"\\ud800"}' }), /surrogate/);
    const mutation = 'mutation ($n: String!) { createWorkspace(input: { name: $n }) { id } }';
    await expectInvalidText(
      await service.api('/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: mutation, variables: { n: 'x\u0000' } }) }),
      /NUL/,
    );
    const literal = await graphql(service, 'mutation { createWorkspace(input: { name: "x\\u0000" }) { id } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors![0].extensions.code).toBe('invalid_text');
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_workspace', arguments: { name: 'x\u0000' } } };
    await expectInvalidText(
      await service.api('/mcp', { method: 'POST', headers: { ...json, accept: 'application/json, text/event-stream' }, body: JSON.stringify(call) }),
      /NUL/,
    );
    const { rows } = await service.database.raw.query({ text: "select count(*)::int as n from workspaces where name like 'x%' or name like 'Clients%'" });
    expect(rows[0]?.n).toBe(0);
  });
});
