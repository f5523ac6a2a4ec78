import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import type { DemoAccount } from '../../admin/seed-demo.js';
import { graphql } from '../support/test-service.js';
import { verificationRecords } from '../support/domain-verification.js';
import { FREE_DOMAINS, orderBody, orderingZone, postJson, startOrderingService, type OrderingHarness } from './support/ordering-fixture.js';

const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));

let h: OrderingHarness;
/** An account whose token is its own (not the demo token the test zone publishes). */
let a: DemoAccount;
let b: DemoAccount;
const TOKEN_A = 'aaaa1111aaaa1111aaaa1111aaaa1111';
const TOKEN_B = 'bbbb2222bbbb2222bbbb2222bbbb2222';

beforeAll(async () => {
  h = await startOrderingService();
  a = await h.service.seedAccount();
  b = await h.service.seedAccount();
  const db = h.service.services.db;
  await db.updateTable('domain_verification_tokens').set({ token: TOKEN_A }).where('account_id', '=', a.accountId).execute();
  await db.updateTable('domain_verification_tokens').set({ token: TOKEN_B }).where('account_id', '=', b.accountId).execute();
});
afterAll(async () => {
  await h?.close();
});

const preview = (domains: string[], key: string) => postJson(h.service, '/v1/orders/preview', orderBody(domains, 1), { key });
const place = (domains: string[], key: string) =>
  postJson(h.service, '/v1/orders', orderBody(domains, 1), { key, headers: { 'idempotency-key': `verify-${Math.random().toString(36).slice(2)}` } });
const issuesOf = (body: any, domain: string) => body.problems.find((p: any) => p.domain === domain)?.issues ?? [];

describe('preview and place refuse a domain the account has not proved', () => {
  it('an unverified domain is a problem for that domain, with the record to publish, on preview and on place', async () => {
    // FREE_DOMAINS carry the demo token, not A's: as good as no record for A.
    const domain = FREE_DOMAINS[35]!;
    for (const response of [await preview([domain], a.key), await place([domain], a.key)]) {
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('order_problems');
      const [issue] = issuesOf(response.body, domain);
      expect(issue).toMatchObject({
        severity: 'error',
        code: 'domain_not_verified',
        field: 'domains[0].domain',
        record: { name: `_inbox-verification.${domain}`, type: 'TXT', value: `inbox-verification=${TOKEN_A}` },
      });
      expect(issue.message).toContain(`_inbox-verification.${domain}`);
      expect(issue.message).toContain(`inbox-verification=${TOKEN_A}`);
    }
  });

  it("account B's token published does not verify the domain for A", async () => {
    const domain = FREE_DOMAINS[36]!;
    h.dns.setRecords([...orderingZone(), ...verificationRecords([domain], TOKEN_B)]);
    const forA = await preview([domain], a.key);
    expect(forA.status).toBe(400);
    expect(issuesOf(forA.body, domain).map((i: any) => i.code)).toEqual(['domain_not_verified']);
    expect(issuesOf(forA.body, domain)[0].message).toContain('none is');
    const forB = await preview([domain], b.key);
    expect(forB.status).toBe(200);
  });

  it('publishing the TXT makes preview pass; the domain then stays verified when the TXT is removed', async () => {
    const domain = FREE_DOMAINS[37]!;
    h.dns.setRecords(orderingZone());
    expect((await preview([domain], a.key)).status).toBe(400);
    h.dns.setRecords([...orderingZone(), ...verificationRecords([domain], TOKEN_A)]);
    const passing = await preview([domain], a.key);
    expect(passing.status).toBe(200);
    expect(passing.body.problems).toEqual([]);
    h.dns.setRecords(orderingZone().filter((r) => !r.name.startsWith(`_inbox-verification.${domain}`)));
    expect((await preview([domain], a.key)).status).toBe(200);
    const listed = await h.service.api('/v1/domains/verification', { key: a.key });
    expect((await listed.json()).verified_domains.map((v: any) => v.domain)).toContain(domain);
  });
});

describe('GET /v1/domains/verification and POST /v1/domains/{domain}/verify', () => {
  it('gives the token, the record template and the verified domains; a read key is enough', async () => {
    const { key } = await createApiKey(h.service.services.db, a.accountId, ['read']);
    const response = await h.service.api('/v1/domains/verification', { key });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      token: TOKEN_A,
      record: { name_template: '_inbox-verification.<domain>', type: 'TXT', value: `inbox-verification=${TOKEN_A}` },
    });
    expect(Array.isArray(body.verified_domains)).toBe(true);
  });

  it('a new account gets a random token of its own, the same on every call', async () => {
    const db = h.service.services.db;
    const account = await db.insertInto('accounts').values({ name: 'Fresh' }).returning('id').executeTakeFirstOrThrow();
    const { key } = await createApiKey(db, account.id, ['read']);
    const first = await (await h.service.api('/v1/domains/verification', { key })).json();
    const second = await (await h.service.api('/v1/domains/verification', { key })).json();
    expect(first.token).toMatch(/^[0-9a-f]{32}$/);
    expect(second.token).toBe(first.token);
    expect(first.token).not.toBe(TOKEN_A);
  });

  it('check now: false with a sentence until the TXT is published, then true; needs scope write', async () => {
    const domain = FREE_DOMAINS[38]!;
    h.dns.setRecords(orderingZone());
    const before = await postJson(h.service, `/v1/domains/${domain}/verify`, undefined, { key: a.key });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      domain,
      verified: false,
      verified_at: null,
      record: { name: `_inbox-verification.${domain}`, type: 'TXT', value: `inbox-verification=${TOKEN_A}` },
    });
    expect(before.body.detail).toContain('publish TXT');
    h.dns.setRecords([...orderingZone(), ...verificationRecords([domain], TOKEN_A)]);
    const after = await postJson(h.service, `/v1/domains/${domain}/verify`, undefined, { key: a.key });
    expect(after.body).toMatchObject({ domain, verified: true });
    expect(after.body.verified_at).toEqual(expect.any(String));
    const { key: readOnly } = await createApiKey(h.service.services.db, a.accountId, ['read']);
    expect((await postJson(h.service, `/v1/domains/${domain}/verify`, undefined, { key: readOnly })).status).toBe(403);
    const bad = await postJson(h.service, '/v1/domains/not a domain/verify', undefined, { key: a.key });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toEqual(expect.any(String));
  });

  it('the same through GraphQL', async () => {
    const result = await graphql(h.service, '{ domainVerification { token record { nameTemplate type value } } }', {}, b.key);
    expect(result.body.data.domainVerification).toEqual({
      token: TOKEN_B,
      record: { nameTemplate: '_inbox-verification.<domain>', type: 'TXT', value: `inbox-verification=${TOKEN_B}` },
    });
  });
});

describe('the MCP tools and the CLI', () => {
  it('get_domain_verification and verify_domain answer as REST does', async () => {
    const client = new Client({ name: 'verification-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${a.key}` } } }),
    );
    try {
      const got = await client.callTool({ name: 'get_domain_verification', arguments: {} });
      const text = (r: Awaited<ReturnType<Client['callTool']>>) => {
        const first: unknown = Array.isArray(r.content) ? r.content[0] : undefined;
        return JSON.parse(first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : 'null');
      };
      expect(text(got)).toMatchObject({ token: TOKEN_A, record: { value: `inbox-verification=${TOKEN_A}` } });
      const domain = FREE_DOMAINS[39]!;
      h.dns.setRecords([...orderingZone(), ...verificationRecords([domain], TOKEN_A)]);
      const verified = await client.callTool({ name: 'verify_domain', arguments: { domain } });
      expect(text(verified)).toMatchObject({ domain, verified: true });
    } finally {
      await client.close();
    }
  });

  function svc(args: string[], key: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: key };
    return new Promise((resolve, reject) => {
      const child = spawn('python3', [SVC, ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end();
    });
  }

  it('svc verification prints the token and record; svc verify DOMAIN exits 1 until published, then 0', async () => {
    const shown = await svc(['verification'], b.key);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ token: TOKEN_B, record: { name_template: '_inbox-verification.<domain>' } });
    const domain = 'cli-verify.com';
    h.dns.setRecords([...orderingZone(), { name: domain, type: 'NS', data: 'ns1.dns-host.net' }]);
    const before = await svc(['verify', domain], b.key);
    expect(before.code).toBe(1);
    expect(JSON.parse(before.stdout)).toMatchObject({ domain, verified: false });
    expect(before.stderr).toContain(`inbox-verification=${TOKEN_B}`);
    h.dns.setRecords([...orderingZone(), { name: domain, type: 'NS', data: 'ns1.dns-host.net' }, ...verificationRecords([domain], TOKEN_B)]);
    const after = await svc(['verify', domain], b.key);
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ domain, verified: true });
  });
});
