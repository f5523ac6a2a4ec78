import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createConnection } from 'node:net';
import { operationTable } from '../../operations/operation-table.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Property-based abuse of the public listener (the keyless checks): random query strings and JSON
 * bodies on every public REST path, by every method. Whatever arrives, the answer is never a 500, a
 * refusal is JSON with a `detail` sentence, an accepted one is a check answer, and nothing is written
 * to the database but rate-limit counters. (test/account/bad-input.test.ts does the account rows.)
 */
let dns: TestDnsServer;
let service: TestService;
beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone });
  service = await startTestService({
    env: {
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '300',
      DNS_TRIES: '1',
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
      WHOIS_SERVER: '127.0.0.1:9',
      REGISTRATION_TIMEOUT_MS: '300',
    },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 1_000_000 },
  });
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

const rows = operationTable.filter((r) => r.listener === 'public');
const paramNames = [...new Set(rows.flatMap((r) => r.params.map((p) => p.name)))];

/** Values a caller might send by mistake or on purpose. */
const nasty = fc.constantFrom(
  '',
  ' ',
  '.',
  '..',
  'good.test',
  'GOOD.TEST.',
  'bad.test',
  'track.good.test',
  'xn--',
  'xn--zz',
  '-a.test',
  'a..b.test',
  'a'.repeat(64) + '.test',
  `${'a.'.repeat(130)}test`,
  'ÄÖÜ.test',
  'пример.испытание',
  '👍.test',
  'alex@good.test',
  'a@b@c',
  '@good.test',
  'http://good.test/x',
  'good.test:25',
  'good.test/path',
  '127.0.0.1',
  '10.0.0.1',
  '169.254.169.254',
  '::1',
  'fe80::1%eth0',
  '256.1.1.1',
  '1.2.3',
  '0x7f.1',
  'localhost',
  'a,b,,c',
  'good.test\u0000',
  '%FF.test',
  ','.repeat(3000),
  Array.from({ length: 1200 }, (_, i) => `d${i}.test`).join(','),
  '%00',
  '\u0000',
  '\r\nX-Injected: 1',
  '"quoted"',
  "'; drop table accounts; --",
  'MX',
  'TXT',
  'ANY',
  'AXFR',
  'mx',
  'default',
  '../../etc/passwd',
  '{"a":1}',
  'null',
  'true',
  '-1',
  '1e309',
);
const plausible = fc.constantFrom(
  'good.test',
  'bad.test',
  'track.good.test',
  'mailer.test',
  'alex@good.test,info@bad.test',
  'good.test,bad.test',
  '198.51.100.7',
  'google',
);
const value = fc.oneof(
  { arbitrary: nasty, weight: 3 },
  { arbitrary: plausible, weight: 2 },
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const name = fc.oneof(fc.constantFrom(...paramNames, '__proto__', 'constructor', 'prototype', 'x', ''), fc.string({ maxLength: 12 }));

/** Statuses seen, so the test can show the inputs reached the checks and not only the refusals. */
const seen: Record<number, number> = {};
async function expectSound(response: Response): Promise<void> {
  seen[response.status] = (seen[response.status] ?? 0) + 1;
  expect(response.status).toBeLessThan(500);
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 204) return void (await response.arrayBuffer());
  expect(type).toMatch(/application\/json/);
  const body = await response.json();
  // A refusal says what to change in a sentence; any other answer is a check's result.
  const refusal = expect.objectContaining({ detail: expect.stringMatching(/^[\s\S]{11,}$/) });
  const result = expect.objectContaining({
    status: expect.toBeOneOf(['pass', 'warn', 'fail', 'error']),
    summary: expect.any(String),
    findings: expect.any(Array),
  });
  expect(body, `a ${response.status} answer`).toEqual(response.status >= 400 ? refusal : result);
}

/**
 * Row counts of every table of ours except the rate-limit counters, which a counted request does
 * change. The job queue's own schema (graphile_worker on PostgreSQL) is the worker's business.
 */
async function tableCounts(): Promise<Record<string, number>> {
  const tables = (await service.services.db.introspection.getTables())
    .filter((t) => t.schema === undefined || t.schema === 'public')
    .map((t) => t.name)
    .filter((t) => t !== 'rate_limits');
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const {
      rows: [row],
    } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(service.services.db);
    counts[table] = row!.n;
  }
  return counts;
}

describe('fuzzing every public check path (fast-check)', () => {
  it('random query strings never produce a 500; refusals carry a detail; answers are check answers', async () => {
    const before = await tableCounts();
    // Mostly the row's own parameters with odd values (so most requests reach the check), plus junk.
    const request = fc.constantFrom(...rows).chain((row) =>
      fc.tuple(
        fc.constant(row),
        fc
          .tuple(
            fc.tuple(...row.params.map((p) => fc.option(fc.tuple(fc.constant(p.name), value), { freq: p.required ? 8 : 2 }))),
            fc.array(fc.tuple(name, value), { maxLength: 2 }),
          )
          .map(([own, junk]) => [...own.filter((x): x is [string, string] => x !== null), ...junk]),
        fc.constantFrom('', '', '', '', '', '', '/', '/x', '%2e%2e', '%E0%A4%A'),
      ),
    );
    await fc.assert(
      fc.asyncProperty(request, async ([row, pairs, suffix]) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        await expectSound(await service.pub(`${row.path}${suffix}${qs ? `?${qs}` : ''}`));
      }),
      { numRuns: 200 },
    );
    expect(await tableCounts()).toEqual(before);
    expect(seen[200] ?? 0).toBeGreaterThan(10);
    expect(seen[400] ?? 0).toBeGreaterThan(10);
  }, 120_000);

  it('random JSON bodies (and non-JSON, and the wrong methods) never produce a 500 and always carry a detail', async () => {
    const before = await tableCounts();
    const body = fc.oneof(
      { arbitrary: fc.dictionary(fc.constantFrom(...paramNames), value, { minKeys: 1, maxKeys: 4 }).map((o) => JSON.stringify(o)), weight: 3 },
      fc.dictionary(name, fc.oneof(value, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }).map((o) => JSON.stringify(o)),
      fc.json({ maxDepth: 2 }),
      fc.constantFrom(
        '',
        '{',
        '{"domain":',
        '[]',
        '"good.test"',
        '42',
        'null',
        '{"domain":"good.test"}{"x":1}',
        'domain=good.test',
        '\u0000',
        '{"domain":"\\ud800.test"}',
        '{"emails":"a@b.test,\\udc00@c.test"}',
        '{"domain":"good.test\\u0000"}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...rows),
        fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
        body,
        async (row, method, contentType, payload) => {
          const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
          await expectSound(await service.pub(row.path, { method, headers, body: payload }));
        },
      ),
      { numRuns: 200 },
    );
    expect(await tableCounts()).toEqual(before);
  }, 120_000);
});

/** Sends a request line byte for byte (fetch would percent-encode a raw 0xFF), and reads the answer. */
function rawGet(base: string, target: Buffer): Promise<{ status: number; body: string; headers: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) }, () => {
      socket.end(Buffer.concat([Buffer.from('GET '), target, Buffer.from(` HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`)]));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body, headers: head.toLowerCase() });
    });
  });
}

describe('NUL, lone surrogates and bytes that are not UTF-8 are a 400 on every public door', () => {
  async function expectInvalidText(response: Response, where: RegExp) {
    expect(response.status).toBe(400);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.json();
    expect(body.code).toBe('invalid_text');
    expect(body.detail).toMatch(where);
  }
  const json = { 'content-type': 'application/json' };
  const mcpHeaders = { ...json, accept: 'application/json, text/event-stream' };

  it('in the path and the query string, percent-encoded or raw', async () => {
    await expectInvalidText(await service.pub('/.platform/functions/check-spf?domain=good.test%00'), /NUL/);
    await expectInvalidText(await service.pub('/.platform/functions/check-spf?domain=%FF.test'), /not valid UTF-8/);
    await expectInvalidText(await service.pub('/.platform/functions/check-spf%C0%AF?domain=good.test'), /not valid UTF-8/);
    const raw = await rawGet(
      service.publicUrl,
      Buffer.concat([Buffer.from('/.platform/functions/check-spf?domain=a'), Buffer.from([0xff, 0xfe]), Buffer.from('.test')]),
    );
    // Node's parser refuses a raw byte above 0x7F in the request line before any handler (clientError).
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.body).detail).toMatch(/request line/);
    // Percent-encoded UTF-8 is text, and a % that starts no escape is only a character.
    const fine = await service.pub(`/.platform/functions/check-dns?domain=${encodeURIComponent('ÄÖÜ.test')}&x=100%`);
    expect(fine.status).toBe(200);
  });

  it('in a JSON body, as a value, a key, or raw bytes', async () => {
    const path = '/.platform/functions/check-spf';
    await expectInvalidText(await service.pub(path, { method: 'POST', headers: json, body: '{"domain":"good.test\\u0000"}' }), /NUL.*"domain"/);
    await expectInvalidText(await service.pub(path, { method: 'POST', headers: json, body: '{"domain":"\\ud800.test"}' }), /surrogate/);
    await expectInvalidText(await service.pub(path, { method: 'POST', headers: json, body: '{"domain":"good.test","a\\u0000":1}' }), /NUL/);
    await expectInvalidText(
      await service.pub(path, { method: 'POST', headers: json, body: Buffer.from([...Buffer.from('{"domain":"a'), 0xc3, 0x28, ...Buffer.from('.test"}')]) }),
      /not valid UTF-8/,
    );
    // A surrogate pair written as escapes is one whole character.
    const pair = await service.pub('/.platform/functions/check-dns', { method: 'POST', headers: json, body: '{"domain":"\\ud83d\\udc4d.test"}' });
    expect((await pair.json()).code).not.toBe('invalid_text');
  });

  it('on /graphql: in variables (POST and GET) and in string literals', async () => {
    const query = 'query ($d: String!) { checkSpf(domain: $d) { __typename } }';
    await expectInvalidText(
      await service.pub('/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query, variables: { d: 'good.test\u0000' } }) }),
      /NUL/,
    );
    await expectInvalidText(
      await service.pub('/graphql', { method: 'POST', headers: json, body: `{"query":${JSON.stringify(query)},"variables":{"d":"\\udfff"}}` }),
      /surrogate/,
    );
    await expectInvalidText(
      await service.pub(`/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent('{"d":"a\\u0000"}')}`),
      /query parameter "variables".*NUL/,
    );
    const literal = await service.pub('/graphql', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: '{ checkSpf(domain: "good.test\\u0000") { __typename } }' }),
    });
    expect(literal.status).toBe(400);
    const error = (await literal.json()).errors[0];
    expect(error.extensions.code).toBe('invalid_text');
    expect(error.message).toMatch(/NUL/);
  });

  it('on /mcp: in a tool argument', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_spf', arguments: { domain: 'good.test\u0000' } } };
    await expectInvalidText(await service.pub('/mcp', { method: 'POST', headers: mcpHeaders, body: JSON.stringify(call) }), /NUL/);
  });
});
