import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { operationTable, type OperationRow } from '../../operations/operation-table.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

let dns: TestDnsServer;
let service: TestService;
beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone });
  service = await startTestService({
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '500', DNS_TRIES: '1', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', REGISTRATION_TIMEOUT_MS: '300' },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
  });
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

const examples: Record<string, Record<string, string>> = {
  check_spf: { domain: 'good.test', ip: '198.51.100.7' },
  check_dkim: { domain: 'good.test', selector: 'google' },
  check_dmarc: { domain: 'good.test' },
  check_dns: { domain: 'good.test', type: 'MX' },
  check_cname: { host: 'track.good.test', expected: 'links.mailer.test' },
  check_nameservers: { domains: 'good.test,bad.test' },
  segment_esp: { domains: 'good.test' },
  verify_email: { emails: 'alex@good.test,info@bad.test' },
};

/** The check through /graphql with the row's own operation document, as REST and MCP run it. */
async function graphqlAnswer(row: OperationRow, args: Record<string, string>) {
  const response = await service.pub('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: loadDocument(row.document).source, variables: args }),
  });
  const body = await response.json();
  expect(body.errors).toBeUndefined();
  // GraphQL answers null where REST leaves a key out (domain_unicode for an ASCII name).
  return rowAnswer(schema, row, body.data);
}

describe('the same check through REST GET, REST POST, /graphql and MCP', () => {
  let mcp: Client;
  beforeAll(async () => {
    mcp = new Client({ name: 'test', version: '1' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.publicUrl}/mcp`)));
  });
  afterAll(async () => {
    await mcp?.close();
  });

  // An assistant reads tools.json and calls what it finds: each listed name must be an MCP tool here.
  it("calls every tools.json name through MCP and gets the check's answer, not 'tool not found'", async () => {
    const catalogue = await (await service.pub('/tools.json')).json();
    const names: string[] = catalogue.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('check_deliverability');
    const { tools } = await mcp.listTools();
    expect(names.filter((n) => !tools.some((t) => t.name === n))).toEqual([]);
    // Each tool's required inputs, from its own schema in the catalogue.
    const sample: Record<string, string> = { domain: 'good.test', domains: 'good.test', input: 'good.test', emails: 'ada@good.test', host: 'track.good.test' };
    for (const tool of catalogue.tools as { name: string; input_schema: { required?: string[] } }[]) {
      const name = tool.name;
      const args = examples[name] ?? Object.fromEntries((tool.input_schema.required ?? []).map((k) => [k, sample[k] ?? 'good.test']));
      const result = await mcp.callTool({ name, arguments: args });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text, name).not.toMatch(/tool .*not found/i);
      expect(result.isError, `${name}: ${text.slice(0, 200)}`).toBeFalsy();
    }
  });

  for (const [operationId, args] of Object.entries(examples)) {
    it(`${operationId} answers identically on every door`, async () => {
      const row = publicCheckRows.find((r) => r.name === operationId)!;
      const get = await service.pub(`${row.path}?${new URLSearchParams(args)}`);
      expect(get.status).toBe(200);
      expect(get.headers.get('access-control-allow-origin')).toBe('*');
      const rest = await get.json();
      expect(['pass', 'warn', 'fail', 'error']).toContain(rest.status);
      expect(typeof rest.summary).toBe('string');
      expect(Array.isArray(rest.findings)).toBe(true);
      const post = await (await service.pub(row.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) })).json();
      const gql = await graphqlAnswer(row, args);
      const tool = await mcp.callTool({ name: operationId, arguments: args });
      expect(tool.isError).toBeFalsy();
      const viaMcp = JSON.parse((tool.content as { text: string }[])[0]!.text);
      expect(post).toEqual(rest);
      expect(gql).toEqual(rest);
      expect(viaMcp).toEqual(rest);
    });
  }

  it('MCP lists one tool per public check, named by operationId', async () => {
    const { tools } = await mcp.listTools();
    const expected = operationTable
      .filter((r) => r.listener === 'public')
      .map((r) => r.name)
      .sort();
    expect(tools.map((t) => t.name).sort()).toEqual(expected);
    const spf = tools.find((t) => t.name === 'check_spf')!;
    expect(spf.inputSchema.required).toEqual(['domain']);
  });
});

describe('the public listener', () => {
  it('answers a CORS preflight', async () => {
    const response = await service.pub('/.platform/functions/check-spf', {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('publishes tools.json with version 2026-09-26 and an input schema per check', async () => {
    const body = await (await service.pub('/tools.json')).json();
    expect(body.version).toBe('2026-09-26');
    const names = body.tools.map((t: any) => t.operationId);
    expect(names).toContain('check_spf');
    for (const tool of body.tools) expect(tool.input_schema.type).toBe('object');
  });

  it.each([
    ['a missing domain', '', /Send the query parameter "domain"/],
    ['an email address', 'domain=alex@good.test', /not an email address/],
    ['a URL', 'domain=https://good.test/', /not a URL/],
    ['an IP address', 'domain=192.0.2.1', /not an IP address/],
    ['an invalid name', 'domain=no_dots', /not a valid domain name/],
  ])('refuses %s with a 400 and a detail saying what to pass', async (_label, query, detail) => {
    const response = await service.pub(`/.platform/functions/check-dmarc?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect((await response.json()).detail).toMatch(detail);
  });

  it('normalises the domain and shows both forms of an internationalised name', async () => {
    const body = await (await service.pub(`/.platform/functions/check-dmarc?domain=${encodeURIComponent(' GOOD.test. ')}`)).json();
    expect(body.domain).toBe('good.test');
    const idn = await (await service.pub(`/.platform/functions/check-dmarc?domain=${encodeURIComponent('bücher.test')}`)).json();
    expect(idn.domain).toBe('xn--bcher-kva.test');
    expect(idn.domain_unicode).toBe('bücher.test');
  });

  it('refuses 101 domains on check-uribl naming the limit', async () => {
    const domains = Array.from({ length: 101 }, (_, i) => `d${i}.test`).join(',');
    const response = await service.pub(`/.platform/functions/check-uribl?domains=${domains}`);
    expect(response.status).toBe(400);
    expect((await response.json()).detail).toMatch(/100/);
  });
});

describe('the public rate limit', () => {
  it('answers 429 with Retry-After once a client address spends its allowance', async () => {
    const limited = await startTestService({ env: { DNS_SERVERS: dns.server }, rateLimits: { public: 3 }, googleTenancy: { probe: async () => 'unknown' } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await limited.pub('/.platform/functions/check-dmarc?domain=good.test')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const over = await limited.pub('/.platform/functions/check-dmarc?domain=good.test');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.headers.get('access-control-allow-origin')).toBe('*');
      expect((await over.json()).detail).toMatch(/per minute per client address/);
    } finally {
      await limited.close();
    }
  });
});

describe('the public /graphql', () => {
  it('counts each request against the client address allowance', async () => {
    const limited = await startTestService({ env: { DNS_SERVERS: dns.server }, rateLimits: { public: 2 }, googleTenancy: { probe: async () => 'unknown' } });
    try {
      const ask = () =>
        limited.pub('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: '{ checkDmarc(domain: "good.test") { ... on CheckAnswer { status } } checkSpf(domain: "good.test") { ... on CheckAnswer { status } } }',
          }),
        });
      const first = await ask();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await ask()).status).toBe(200);
      const over = await ask();
      expect(over.status).toBe(429);
      expect((await over.json()).detail).toMatch(/wait/);
    } finally {
      await limited.close();
    }
  });
});

describe('behind a trusted proxy', () => {
  it('counts each forwarded client on its own allowance, and only when the proxy is trusted', async () => {
    const proxied = await startTestService({
      env: { DNS_SERVERS: dns.server, TRUSTED_PROXIES: '127.0.0.1' },
      rateLimits: { public: 1 },
      googleTenancy: { probe: async () => 'unknown' },
    });
    try {
      const ask = (client: string) => proxied.pub('/.platform/functions/check-dmarc?domain=good.test', { headers: { 'x-forwarded-for': client } });
      expect((await ask('198.51.100.1')).status).toBe(200);
      expect((await ask('198.51.100.2')).status).toBe(200);
      expect((await ask('198.51.100.1')).status).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});

describe('POST bodies on the public checks', () => {
  it('refuse a key the check does not take, naming the ones it does', async () => {
    const response = await service.pub('/.platform/functions/check-dkim', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'good.test', selectr: 'google' }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).detail).toMatch(/Remove "selectr".*"selector"/);
  });
});
