import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dmarcFixture, gzip, reportFixture } from '../support/report-files.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';

/** Reports read back through the three doors: the list (cursor pages), a domain's sources (with PTR names), per-day figures, and analytics' report figures (null without reports). */
let service: TestService;
let dns: TestDnsServer;
let domain: string;
let quiet: string;
const yesterday = new Date(Date.now() - 86_400_000);
yesterday.setUTCHours(0, 0, 0, 0);

async function upload(body: Buffer) {
  const response = await service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(body) });
  expect(response.status).toBe(200);
  return response.json();
}

async function get(path: string) {
  const response = await service.api(path);
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  // The sources' PTR names come from our resolver, shown only when forward-confirmed: Google's address
  // has one whose A record holds it, Outlook's IPv6 one too (its AAAA spelled out in full); 203.0.113.77
  // claims mail.google.com, whose A does not hold it (unconfirmed: null); Yahoo's never answers (a
  // timeout: unnamed, and asked again next read).
  dns = await startTestDnsServer({
    records: [
      { name: '41.220.85.209.in-addr.arpa', type: 'PTR', data: 'mail-sor-f41.google.com' },
      { name: 'mail-sor-f41.google.com', type: 'A', data: '209.85.220.41' },
      { name: '3.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.1.1.c.3.0.4.f.1.1.1.0.1.0.a.2.ip6.arpa', type: 'PTR', data: 'Mail-DB5.Outbound.Protection.Outlook.COM.' },
      { name: 'mail-db5.outbound.protection.outlook.com', type: 'AAAA', data: '2a01:0111:f403:c111:0000:0000:0000:0003' },
      { name: '77.113.0.203.in-addr.arpa', type: 'PTR', data: 'mail.google.com' },
      { name: 'mail.google.com', type: 'A', data: '142.250.0.1' },
    ],
    behaviours: { '69.220.85.209.in-addr.arpa': 'timeout' },
  });
  service = await startTestService({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '300', DNS_TRIES: '1' } });
  const rows = await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', service.demo.accountId).orderBy('id').execute();
  domain = rows[0]!.domain;
  quiet = rows[1]!.domain;
  // Google: 120 passing from 209.85.220.41 and 3 failing from 203.0.113.77; Yahoo: 25 passing from 209.85.220.69; Microsoft: 40 passing (DKIM) over IPv6.
  await upload(gzip(dmarcFixture('google.xml', { domain, begin: yesterday, reportId: 'read-google' })));
  await upload(gzip(dmarcFixture('yahoo.xml', { domain, begin: yesterday, reportId: 'read-yahoo' })));
  await upload(gzip(dmarcFixture('microsoft.xml', { domain, begin: yesterday, reportId: 'read-ms' })));
  const tls = reportFixture('microsoft-tlsrpt.json')
    .replaceAll('northwind-mail.test', domain)
    .replace(/2026-11-24T00:00:00Z/g, yesterday.toISOString())
    .replace('2026-11-24T23:59:59Z', new Date(yesterday.getTime() + 86_399_000).toISOString());
  await upload(Buffer.from(tls));
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

describe('GET /v1/portal/reports', () => {
  it('pages newest first with limit, starting_after and has_more', async () => {
    const first = await get('/v1/portal/reports?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((r: { kind: string; org_name: string }) => `${r.kind}:${r.org_name}`)).toEqual([
      'tls:Microsoft Corporation',
      'dmarc:Enterprise Outlook',
      'dmarc:Yahoo',
    ]);
    expect(first.body.data[2]).toEqual({
      id: expect.any(Number),
      kind: 'dmarc',
      domain,
      org_name: 'Yahoo',
      report_id: 'read-yahoo',
      begin: yesterday.toISOString(),
      end: new Date(yesterday.getTime() + 86_399_000).toISOString(),
      messages: 25,
      passed: 25,
      pass_rate: 100,
      records: 1,
      received_via: 'upload',
      received_at: expect.any(String),
      authenticated: true,
    });
    const next = await get(`/v1/portal/reports?limit=3&starting_after=${first.body.data[2].id}`);
    expect(next.body).toEqual({ data: [expect.objectContaining({ org_name: 'google.com', messages: 123, passed: 120, pass_rate: 97.6 })], has_more: false });
    expect((await get('/v1/portal/reports?starting_after=abc')).body.code).toBe('invalid_starting_after');
    expect((await get('/v1/portal/reports?limit=0')).status).toBe(400);
    expect((await get(`/v1/portal/reports?domain=${quiet}`)).body).toEqual({ data: [], has_more: false });
  });
});

describe('GET /v1/portal/domains/{domain}/sources', () => {
  it('answers each source with volume and pass rate, most messages first', async () => {
    const answer = await get(`/v1/portal/domains/${domain}/sources?period=7d`);
    expect(answer.status).toBe(200);
    expect(answer.body.period).toBe('7d');
    expect(answer.body.sources.map((s: { source_ip: string; messages: number; pass_rate: number }) => [s.source_ip, s.messages, s.pass_rate])).toEqual([
      ['209.85.220.41', 120, 100],
      ['2a01:111:f403:c111::3', 40, 100],
      ['209.85.220.69', 25, 100],
      ['203.0.113.77', 3, 0],
    ]);
    expect(answer.body.sources[1]).toMatchObject({ dkim_aligned: 40, spf_aligned: 0, reporters: 1, first_day: yesterday.toISOString().slice(0, 10) });
  });

  it('names each source by its forward-confirmed PTR (null when it has none, it does not lead back, or it did not answer), keeps the answers and asks only the unanswered again', async () => {
    const ptrQuestions = () => dns.questions.filter((q) => q.type === 'PTR').map((q) => q.name);
    const before = ptrQuestions().length;
    const first = await get(`/v1/portal/domains/${domain}/sources?period=7d`);
    expect(first.body.sources.map((s: { source_ip: string; ptr: string | null }) => [s.source_ip, s.ptr])).toEqual([
      ['209.85.220.41', 'mail-sor-f41.google.com'],
      ['2a01:111:f403:c111::3', 'mail-db5.outbound.protection.outlook.com'],
      ['209.85.220.69', null],
      ['203.0.113.77', null],
    ]);
    const stored = await service.services.db.selectFrom('source_ptr_names').select(['source_ip', 'ptr']).orderBy('source_ip').execute();
    expect(stored).toEqual([
      { source_ip: '203.0.113.77', ptr: null },
      { source_ip: '209.85.220.41', ptr: 'mail-sor-f41.google.com' },
      { source_ip: '2a01:111:f403:c111::3', ptr: 'mail-db5.outbound.protection.outlook.com' },
    ]);
    // Another read asks only the address whose lookup timed out.
    const asked = ptrQuestions().length;
    await get(`/v1/portal/domains/${domain}/sources?period=7d`);
    expect(ptrQuestions().slice(asked)).toEqual(['69.220.85.209.in-addr.arpa']);
    expect(asked).toBeGreaterThan(before);
  });

  it('a domain that is not yours is a 404; a quiet domain has no sources', async () => {
    expect((await get('/v1/portal/domains/not-mine.example/sources')).status).toBe(404);
    expect((await get(`/v1/portal/domains/${quiet}/sources`)).body.sources).toEqual([]);
    expect((await get(`/v1/portal/domains/${domain}/sources?period=2w`)).body.code).toBe('invalid_period');
  });
});

describe('analytics gains report figures', () => {
  it('a domain with reports has messages, pass rate, failing sources and TLS figures; one without has null, never 0', async () => {
    const answer = await get('/v1/portal/analytics?period=7d');
    const byName = new Map(answer.body.domains.map((d: { domain: string }) => [d.domain, d]));
    expect(byName.get(domain)).toMatchObject({ reported_messages: 188, dmarc_pass_rate: 98.4, failing_sources: 1, tls_sessions: 100, tls_failure_rate: 5 });
    expect(byName.get(quiet)).toMatchObject({
      reported_messages: null,
      dmarc_pass_rate: null,
      failing_sources: null,
      tls_sessions: null,
      tls_failure_rate: null,
    });
  });
});

describe('GET /v1/portal/reports/daily', () => {
  it('answers every domain with only the days a DMARC report covers: messages, passed and pass rate; a domain without reports has no days', async () => {
    const answer = await get('/v1/portal/reports/daily?period=7d');
    expect(answer.status).toBe(200);
    expect(answer.body.period).toBe('7d');
    const byName = new Map(answer.body.domains.map((d: { domain: string; days: unknown[] }) => [d.domain, d.days]));
    expect(byName.get(domain)).toEqual([{ day: yesterday.toISOString().slice(0, 10), messages: 188, passed: 185, pass_rate: 98.4 }]);
    expect(byName.get(quiet)).toEqual([]);
    const owned = await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', service.demo.accountId).orderBy('domain').execute();
    expect(answer.body.domains.map((d: { domain: string }) => d.domain)).toEqual(owned.map((d) => d.domain));
    expect((await get('/v1/portal/reports/daily?period=2w')).body.code).toBe('invalid_period');
  });
});

describe('GraphQL and MCP read the same', () => {
  it('GraphQL: reports, domainSources, analytics', async () => {
    const answer = await graphql(
      service,
      `query($d: String!) { reports(limit: 1) { data { orgName kind } hasMore } domainSources(domain: $d, period: P7D) { sources { sourceIp passRate } } analytics { domains { domain reportedMessages } } reportDays(period: P7D) { domains { domain days { day messages passRate } } } }`,
      { d: domain },
    );
    expect(answer.body.data.reports).toEqual({ data: [{ orgName: 'Microsoft Corporation', kind: 'tls' }], hasMore: true });
    expect(answer.body.data.domainSources.sources[3]).toEqual({ sourceIp: '203.0.113.77', passRate: 0 });
    expect(answer.body.data.analytics.domains).toContainEqual({ domain: quiet, reportedMessages: null });
    expect(answer.body.data.reportDays.domains).toContainEqual({
      domain,
      days: [{ day: yesterday.toISOString().slice(0, 10), messages: 188, passRate: 98.4 }],
    });
    expect(answer.body.data.reportDays.domains).toContainEqual({ domain: quiet, days: [] });
  });

  it('MCP: list_reports and get_domain_sources', async () => {
    const client = new Client({ name: 'reports-read-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.demo.key}` } } }),
    );
    try {
      const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { type: string; text: string }[])[0]!.text;
      const list = JSON.parse(text(await client.callTool({ name: 'list_reports', arguments: { limit: 2 } })));
      expect([list.data.length, list.has_more]).toEqual([2, true]);
      const sources = JSON.parse(text(await client.callTool({ name: 'get_domain_sources', arguments: { domain, period: '7d' } })));
      expect(sources.sources[0]).toMatchObject({ source_ip: '209.85.220.41', ptr: 'mail-sor-f41.google.com', messages: 120 });
      const days = JSON.parse(text(await client.callTool({ name: 'get_report_days', arguments: { period: '7d' } })));
      expect(days.domains).toContainEqual({ domain, days: [{ day: yesterday.toISOString().slice(0, 10), messages: 188, passed: 185, pass_rate: 98.4 }] });
      expect(days.domains).toContainEqual({ domain: quiet, days: [] });
    } finally {
      await client.close();
    }
  });
});
