import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { operationTable } from '../../operations/operation-table.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** The operation table's annotations and limits, as an MCP client sees them in the tool lists. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ rateLimits: { public: 10_000 } });
});
afterAll(async () => {
  await service?.close();
});

async function listTools(url: string, key?: string) {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : undefined));
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

describe('MCP tool annotations', () => {
  it('every row (each is a tool) says whether it reads, destroys or can be repeated', () => {
    const tools = operationTable;
    for (const row of tools) expect(typeof row.annotations.readOnlyHint, row.name).toBe('boolean');
    // A GET reads only: it destroys nothing and can be repeated.
    // The credentials export is a GET that records a mailbox.credentials_revealed event: not read-only.
    const reading = tools.filter((r) => r.method === 'GET' && r.name !== 'export_order_mailboxes');
    expect(reading.length).toBeGreaterThan(0);
    for (const row of reading) expect(row.annotations, row.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  });

  it('the account tools carry them: place_order is destructive and not read-only, reads are read-only', async () => {
    const tools = await listTools(`${service.apiUrl}/mcp`, service.demo.key);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('place_order')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(byName.get('get_dashboard')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get('preview_order')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('create_card_setup_link')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    for (const tool of tools) expect(tool.annotations, tool.name).toBeDefined();
  });

  it('place_order describes its arguments as MCP sees them: an idempotency_key argument, no header', async () => {
    const tools = await listTools(`${service.apiUrl}/mcp`, service.demo.key);
    const place = tools.find((t) => t.name === 'place_order')!;
    expect(place.description).not.toMatch(/header/i);
    expect(JSON.stringify(place.inputSchema)).not.toMatch(/header/i);
    expect(place.inputSchema.required).toContain('idempotency_key');
    const domains = (place.inputSchema.properties as Record<string, { maxItems?: number; description?: string }>).domains!;
    expect(domains.maxItems).toBe(500);
    expect(domains.description).toMatch(/2,000 mailboxes/);
  });

  it('the public checks are read-only, idempotent and open-world, with their limits and enums', async () => {
    const tools = await listTools(`${service.publicUrl}/mcp`);
    for (const tool of tools)
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, any>;
    expect(props('check_dns').type.enum).toEqual(['MX', 'TXT', 'A', 'AAAA', 'CNAME', 'NS', 'SOA', 'CAA']);
    expect(props('check_uribl').domains.anyOf[0]).toMatchObject({ type: 'array', maxItems: 100 });
    expect(props('verify_email').emails.anyOf[0]).toMatchObject({ type: 'array', maxItems: 5000 });
  });
});
