import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { operationTable, toolNameOf, type OperationRow } from '../../operations/operation-table.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { SCOPES, type Scope } from '../../resolvers/auth/scopes.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * REST and MCP offer the same operations: one case per operation-table row (generated from the
 * table, so a row added later is checked with no edit here), and both directions compared between
 * what the running service serves: its OpenAPI documents (the REST routes) and its tools/list.
 */
/** GETs whose operation records something (a mailbox.credentials_revealed event), so their tools say they are not read-only. */
const GETS_THAT_RECORD = new Set(['export_order_mailboxes']);

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

let service: TestService;
const toolsByKey = new Map<string, Tool[]>();
let openApiOperations: { api: Set<string>; public: Set<string> };

async function listTools(url: string, key?: string): Promise<Tool[]> {
  const client = new Client({ name: 'parity-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : undefined));
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

async function operationIds(url: string): Promise<Set<string>> {
  const document = (await (await fetch(url)).json()) as { paths: Record<string, Record<string, { operationId: string; 'x-same-as'?: string }>> };
  // The public checks answer POST too ("x-same-as" the GET); one operation, one tool.
  return new Set(
    Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => !op['x-same-as'])
      .map((op) => op.operationId),
  );
}

beforeAll(async () => {
  service = await startTestService({ rateLimits: { public: 10_000, read: 10_000 } });
  const keyOf = async (scopes: Scope[]) => (await createApiKey(service.services.db, service.demo.accountId, scopes)).key;
  for (const scope of SCOPES) toolsByKey.set(scope, await listTools(`${service.apiUrl}/mcp`, await keyOf([scope])));
  toolsByKey.set('all', await listTools(`${service.apiUrl}/mcp`, await keyOf([...SCOPES])));
  toolsByKey.set('public', await listTools(`${service.publicUrl}/mcp`));
  openApiOperations = { api: await operationIds(`${service.apiUrl}/openapi.json`), public: await operationIds(`${service.publicUrl}/openapi.json`) };
});
afterAll(async () => {
  await service?.close();
});

const toolsOf = (row: OperationRow) => toolsByKey.get(row.listener === 'public' ? 'public' : 'all')!;

describe.each(operationTable.map((row) => [`${row.listener} ${row.method} ${row.path}`, row] as const))('%s', (_, row) => {
  it(`is the MCP tool ${toolNameOf(row)}, with the row's annotations and summary`, () => {
    expect(toolNameOf(row)).toBe(row.name);
    const tool = toolsOf(row).find((t) => t.name === toolNameOf(row));
    expect(tool, `${row.name} has no MCP tool`).toBeDefined();
    expect(tool!.annotations).toEqual(row.annotations);
    expect(tool!.description).toBe(row.summary);
    expect(openApiOperations[row.listener].has(row.name), `${row.name} is not a REST operation`).toBe(true);
  });
});

const accountRows = operationTable.filter((row): row is OperationRow & { scope: Scope } => row.listener === 'api' && row.scope !== null);
describe.each(accountRows.map((row) => [toolNameOf(row), row] as const))('the account tool %s', (_, row) => {
  it(`is listed to a key holding ${row.scope} and to no key without it`, () => {
    for (const held of SCOPES) {
      const names = toolsByKey.get(held)!.map((t) => t.name);
      expect(names.includes(toolNameOf(row)), `a ${held} key`).toBe(held === row.scope);
    }
  });
});

describe('nothing on one door that the other lacks', () => {
  for (const listener of ['api', 'public'] as const) {
    it(`${listener}: the REST operations and the MCP tools are the same set`, () => {
      const tools = toolsByKey.get(listener === 'api' ? 'all' : 'public')!.map((t) => t.name);
      expect(new Set(tools).size).toBe(tools.length);
      expect([...tools].sort()).toEqual([...openApiOperations[listener]].sort());
      expect([...tools].sort()).toEqual(
        operationTable
          .filter((r) => r.listener === listener)
          .map(toolNameOf)
          .sort(),
      );
    });
  }

  it('every GET destroys nothing; every GET but those that record something is read-only and idempotent; every DELETE is destructive', () => {
    for (const row of operationTable.filter((r) => r.method === 'GET')) expect(row.annotations.destructiveHint, row.name).toBe(false);
    for (const row of operationTable.filter((r) => r.method === 'GET' && !GETS_THAT_RECORD.has(r.name)))
      expect(row.annotations, row.name).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    for (const row of operationTable.filter((r) => r.method === 'DELETE'))
      expect(row.annotations, row.name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });
});
