import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { operationTable, toolNameOf } from '../../operations/operation-table.js';
import { answerSchemaFor, toolOutputOf } from '../../operations/answer-schema.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { recordEvent } from '../../resolvers/events/record-event.js';
import { SCOPES } from '../../resolvers/auth/scopes.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * MCP 2025-06-18 typed results: every tool declares an outputSchema (the REST answer's JSON Schema,
 * from the same GraphQL selection as OpenAPI's 200) and answers structuredContent beside the text.
 * The SDK client validates structuredContent against the listed outputSchema on every callTool (it
 * throws when they disagree); the tests check it again with the SDK's own validator.
 */
type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];
type Result = Awaited<ReturnType<Client['callTool']>>;

let dns: TestDnsServer;
let service: TestService;
let account: Client;
let checks: Client;
let accountTools: Map<string, Tool>;
let publicTools: Map<string, Tool>;
const validator = new AjvJsonSchemaValidator();

async function connect(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'structured-results-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : undefined));
  return client;
}

beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone });
  service = await startTestService({
    rateLimits: { public: 10_000, read: 10_000 },
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '500', DNS_TRIES: '1', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', REGISTRATION_TIMEOUT_MS: '300' },
    googleTenancy: { probe: async () => 'unknown' },
  });
  const { key } = await createApiKey(service.services.db, service.demo.accountId, [...SCOPES]);
  await recordEvent(service.services.db, service.demo.accountId, 'domain.live', { domain: 'example.com', order_id: 1 });
  account = await connect(`${service.apiUrl}/mcp`, key);
  checks = await connect(`${service.publicUrl}/mcp`);
  accountTools = new Map((await account.listTools()).tools.map((t) => [t.name, t]));
  publicTools = new Map((await checks.listTools()).tools.map((t) => [t.name, t]));
});
afterAll(async () => {
  await account?.close();
  await checks?.close();
  await service?.close();
  await dns?.close();
});

/** The structured result validated against the tool's listed outputSchema by the SDK's validator. */
function expectValid(tool: Tool, result: Result) {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.structuredContent, tool.name).toBeDefined();
  const check = validator.getValidator(tool.outputSchema as never)(result.structuredContent);
  expect(check.errorMessage, tool.name).toBeUndefined();
  expect(check.valid).toBe(true);
}
const textOf = (result: Result) => (result.content as { type: string; text: string }[])[0]!.text;

describe('every tool declares an outputSchema', () => {
  it.each(operationTable.map((row) => [toolNameOf(row), row] as const))('%s: an object schema, the REST answer or the answer under one key', (name, row) => {
    const tool = (row.listener === 'api' ? accountTools : publicTools).get(name)!;
    expect(tool.outputSchema?.type).toBe('object');
    const answer = row.textAnswer ? { type: 'string' } : answerSchemaFor(row);
    const { wrap } = toolOutputOf(row);
    const inner = wrap ? tool.outputSchema!.properties![wrap] : tool.outputSchema;
    expect(inner).toMatchObject(answer);
    expect(tool.outputSchema).toEqual(toolOutputOf(row).schema);
  });
});

// Every account read that takes no argument, generated from the table: called, validated, and equal to REST.
const plainReads = operationTable.filter((r) => r.listener === 'api' && r.method === 'GET' && r.params.every((p) => !p.required) && !r.textAnswer);

describe('the account reads answer structuredContent that validates and equals the REST answer', () => {
  it.each(plainReads.map((row) => [toolNameOf(row), row] as const))('%s', async (name, row) => {
    const tool = accountTools.get(name)!;
    const result = await account.callTool({ name, arguments: {} });
    expectValid(tool, result);
    const rest = await service.api(row.path, { key: service.demo.key });
    expect(rest.status).toBe(200);
    const body = await rest.json();
    expect(JSON.parse(textOf(result))).toEqual(body);
    const { wrap } = toolOutputOf(row);
    expect(result.structuredContent).toEqual(wrap ? { [wrap]: body } : body);
  });

  it('list_events: each event carries data as an object, as the schema now says', async () => {
    const result = await account.callTool({ name: 'list_events', arguments: { limit: 5 } });
    expectValid(accountTools.get('list_events')!, result);
    const page = result.structuredContent as { data: { type: string; data: Record<string, unknown> }[] };
    expect(page.data[0]).toMatchObject({ type: 'domain.live', data: { domain: 'example.com' } });
  });
});

describe('changing tools and tools with arguments', () => {
  it('create_workspace, rename_workspace, list_workspaces and delete_workspace (tools REST had and MCP lacked)', async () => {
    const created = await account.callTool({ name: 'create_workspace', arguments: { name: 'Structured folder' } });
    expectValid(accountTools.get('create_workspace')!, created);
    const folder = created.structuredContent as { workspace_id: number; name: string };
    expect(folder.name).toBe('Structured folder');
    const renamed = await account.callTool({ name: 'rename_workspace', arguments: { workspace_id: folder.workspace_id, name: 'Renamed folder' } });
    expectValid(accountTools.get('rename_workspace')!, renamed);
    const listed = await account.callTool({ name: 'list_workspaces', arguments: {} });
    expectValid(accountTools.get('list_workspaces')!, listed);
    const { workspaces } = listed.structuredContent as { workspaces: { name: string }[] };
    expect(workspaces.map((w) => w.name)).toContain('Renamed folder');
    expect(JSON.parse(textOf(listed))).toEqual(listed.structuredContent);
    const deleted = await account.callTool({ name: 'delete_workspace', arguments: { workspace_id: folder.workspace_id } });
    expectValid(accountTools.get('delete_workspace')!, deleted);
  });

  it('get_domain_setup and get_domain_setup_zone (text: the zone file as text, and under "domain_setup_zone")', async () => {
    const dashboard = (await account.callTool({ name: 'get_dashboard', arguments: {} })).structuredContent as {
      orders: { domains: { domain: string }[] }[];
    };
    const domain = dashboard.orders.flatMap((o) => o.domains)[0]!.domain;
    const setup = await account.callTool({ name: 'get_domain_setup', arguments: { domain } });
    expectValid(accountTools.get('get_domain_setup')!, setup);
    expect((setup.structuredContent as { domain: string }).domain).toBe(domain);
    const zone = await account.callTool({ name: 'get_domain_setup_zone', arguments: { domain } });
    expectValid(accountTools.get('get_domain_setup_zone')!, zone);
    const rest = await service.api(`/v1/domains/${domain}/setup/zone`, { key: service.demo.key });
    const text = await rest.text();
    expect(textOf(zone)).toBe(text);
    expect(zone.structuredContent).toEqual({ domain_setup_zone: text });
  });

  it('list_dns_connections: a list, answered under "dns_connections"', async () => {
    const result = await account.callTool({ name: 'list_dns_connections', arguments: {} });
    expectValid(accountTools.get('list_dns_connections')!, result);
    expect(result.structuredContent).toEqual({ dns_connections: JSON.parse(textOf(result)) });
    expect(Array.isArray(JSON.parse(textOf(result)))).toBe(true);
  });
});

describe('the public checks answer structuredContent too', () => {
  const calls: [string, Record<string, unknown>][] = [
    ['check_spf', { domain: 'good.test' }],
    ['check_dmarc', { domain: 'good.test' }],
    ['check_dns', { domain: 'good.test', type: 'TXT' }],
    ['verify_email', { emails: ['alex@good.test', 'info@bad.test'] }],
  ];
  it.each(calls)('%s %j', async (name, args) => {
    const result = await checks.callTool({ name, arguments: args });
    expectValid(publicTools.get(name)!, result);
    expect(result.structuredContent).toEqual(JSON.parse(textOf(result)));
    expect((result.structuredContent as { status: string }).status).toMatch(/^(pass|warn|fail|error)$/);
  });
});
