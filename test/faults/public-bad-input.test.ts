import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { operationTable } from '../../rest/operation-table.js';
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
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '300', DNS_TRIES: '1', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', WHOIS_SERVER: '127.0.0.1:9', REGISTRATION_TIMEOUT_MS: '300' },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 1_000_000 },
  });
});
afterAll(async () => { await service?.close(); await dns?.close(); });

const rows = operationTable.filter((r) => r.listener === 'public');
const paramNames = [...new Set(rows.flatMap((r) => r.params.map((p) => p.name)))];

/** Values a caller might send by mistake or on purpose. */
const nasty = fc.constantFrom(
  '', ' ', '.', '..', 'good.test', 'GOOD.TEST.', 'bad.test', 'track.good.test', 'xn--', 'xn--zz', '-a.test', 'a..b.test', 'a'.repeat(64) + '.test', `${'a.'.repeat(130)}test`,
  'ÄÖÜ.test', 'пример.испытание', '👍.test', 'alex@good.test', 'a@b@c', '@good.test', 'http://good.test/x', 'good.test:25', 'good.test/path',
  '127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', 'fe80::1%eth0', '256.1.1.1', '1.2.3', '0x7f.1', 'localhost',
  'a,b,,c', ','.repeat(3000), Array.from({ length: 1200 }, (_, i) => `d${i}.test`).join(','), '%00', '\u0000', '\r\nX-Injected: 1', '"quoted"', "'; drop table accounts; --",
  'MX', 'TXT', 'ANY', 'AXFR', 'mx', 'default', '../../etc/passwd', '{"a":1}', 'null', 'true', '-1', '1e309',
);
const plausible = fc.constantFrom('good.test', 'bad.test', 'track.good.test', 'mailer.test', 'alex@good.test,info@bad.test', 'good.test,bad.test', '198.51.100.7', 'google');
const value = fc.oneof({ arbitrary: nasty, weight: 3 }, { arbitrary: plausible, weight: 2 }, fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 }));
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
  if (response.status >= 400) {
    expect(typeof body.detail).toBe('string');
    expect(body.detail.length).toBeGreaterThan(10);
  } else {
    expect(['pass', 'warn', 'fail', 'error']).toContain(body.status);
    expect(typeof body.summary).toBe('string');
    expect(Array.isArray(body.findings)).toBe(true);
  }
}

/** Row counts of every table except the rate-limit counters, which a counted request does change. */
async function tableCounts(): Promise<Record<string, number>> {
  const tables = (await service.services.db.introspection.getTables()).map((t) => t.name).filter((t) => t !== 'rate_limits');
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows: [row] } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(service.services.db);
    counts[table] = row!.n;
  }
  return counts;
}

describe('fuzzing every public check path (fast-check)', () => {
  it('random query strings never produce a 500; refusals carry a detail; answers are check answers', async () => {
    const before = await tableCounts();
    // Mostly the row's own parameters with odd values (so most requests reach the check), plus junk.
    const request = fc.constantFrom(...rows).chain((row) => fc.tuple(
      fc.constant(row),
      fc.tuple(
        fc.tuple(...row.params.map((p) => fc.option(fc.tuple(fc.constant(p.name), value), { freq: p.required ? 8 : 2 }))),
        fc.array(fc.tuple(name, value), { maxLength: 2 }),
      ).map(([own, junk]) => [...own.filter((x): x is [string, string] => x !== null), ...junk]),
      fc.constantFrom('', '', '', '', '', '', '/', '/x', '%2e%2e', '%E0%A4%A'),
    ));
    await fc.assert(fc.asyncProperty(
      request,
      async ([row, pairs, suffix]) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        await expectSound(await service.pub(`${row.path}${suffix}${qs ? `?${qs}` : ''}`));
      },
    ), { numRuns: 200 });
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
      fc.constantFrom('', '{', '{"domain":', '[]', '"good.test"', '42', 'null', '{"domain":"good.test"}{"x":1}', 'domain=good.test', '\u0000'),
    );
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...rows),
      fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
      body,
      async (row, method, contentType, payload) => {
        const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
        await expectSound(await service.pub(row.path, { method, headers, body: payload }));
      },
    ), { numRuns: 200 });
    expect(await tableCounts()).toEqual(before);
  }, 120_000);
});
