import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '@readme/openapi-parser';
import { operationTable, type OperationRow } from '../../operations/operation-table.js';
import { openApiDocument, type OpenApiDocument } from '../../rest/openapi.js';
import type { JsonSchema } from '../../operations/graphql-json-schema.js';
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
  });
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

const listeners = ['api', 'public'] as const;
const rowsOf = (listener: 'api' | 'public') => operationTable.filter((r) => r.listener === listener);
const documentOf = (listener: 'api' | 'public') =>
  openApiDocument(operationTable, listener, listener === 'api' ? 'https://api.example.com' : 'https://checks.example.com');

/** Every $ref string anywhere in a value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

function pointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      document,
    );
}

/**
 * A small JSON Schema checker for what the generator emits (type with null, properties, required,
 * additionalProperties false, items, enum, anyOf, $ref): enough to hold real answers to the documents.
 */
function conforms(value: unknown, schema: JsonSchema, document: OpenApiDocument, at = '$'): string[] {
  if (typeof schema.$ref === 'string') return conforms(value, pointer(document, schema.$ref) as JsonSchema, document, at);
  if (Array.isArray(schema.anyOf)) {
    const results = (schema.anyOf as JsonSchema[]).map((s) => conforms(value, s, document, at));
    return results.some((r) => r.length === 0) ? [] : [`${at}: matches no anyOf branch (${results.flat().join('; ')})`];
  }
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) return [`${at}: ${JSON.stringify(value)?.slice(0, 60)} is ${actual}, not ${types.join('|')}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push(`${at}: ${String(value)} not in enum`);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (schema.required as string[] | undefined) ?? []) if (!(name in value)) errors.push(`${at}.${name}: missing`);
    for (const [name, v] of Object.entries(value)) {
      if (properties[name]) errors.push(...conforms(v, properties[name]!, document, `${at}.${name}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${name}: not in the schema`);
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...conforms(v, schema.items as JsonSchema, document, `${at}[${i}]`)));
  return errors;
}

function operationOf(document: OpenApiDocument, row: OperationRow) {
  return document.paths[row.path]?.[row.method.toLowerCase()];
}

function answerSchema(document: OpenApiDocument, row: OperationRow): JsonSchema {
  const ok = operationOf(document, row)!.responses['200'] as { content: Record<string, { schema: JsonSchema }> };
  return ok.content['application/json']!.schema;
}

describe('the OpenAPI documents', () => {
  for (const listener of listeners) {
    it(`${listener}: every operation-table row of the listener is an operation, with its method, path and operationId`, () => {
      const document = documentOf(listener);
      const rows = rowsOf(listener);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const operation = operationOf(document, row);
        expect(operation, `${row.method} ${row.path}`).toBeDefined();
        expect(operation!.operationId).toBe(row.name);
        expect(operation!.summary).toBe(row.summary);
      }
      const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
      expect(new Set(ids).size).toBe(ids.length);
      // Nothing from the other listener leaks in.
      const other = rowsOf(listener === 'api' ? 'public' : 'api').map((r) => r.name);
      expect(ids.filter((id) => other.includes(id))).toEqual([]);
    });

    it(`${listener}: passes @readme/openapi-parser validation as OpenAPI 3.1`, async () => {
      const result = await validate(structuredClone(documentOf(listener)) as never);
      expect(result.valid ? [] : result.errors).toEqual([]);
      expect(result.specification).toBe('OpenAPI');
    });

    it(`${listener}: required top-level fields, every $ref resolves, every path parameter is declared`, () => {
      const document = documentOf(listener);
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
      expect((document.servers as { url: string }[])[0]!.url).toMatch(/^https:\/\//);
      for (const ref of refsIn(document)) expect(pointer(document, ref), ref).toBeDefined();
      for (const [path, item] of Object.entries(document.paths)) {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        for (const op of Object.values(item)) {
          const declared = ((op.parameters ?? []) as { name: string; in: string; required: boolean }[]).filter((p) => p.in === 'path');
          expect(declared.map((p) => p.name).sort(), `${op.operationId}`).toEqual([...names].sort());
          for (const p of declared) expect(p.required).toBe(true);
        }
      }
    });
  }

  it('account operations name their scope (security and x-scope) and public ones need none', () => {
    const api = documentOf('api');
    for (const row of rowsOf('api')) {
      const op = operationOf(api, row)!;
      expect(op.security).toEqual([{ bearerAuth: [row.scope] }]);
      expect(op['x-scope']).toBe(row.scope);
      expect(op.description).toContain(`\`${row.scope}\``);
    }
    expect((api.components as Record<string, unknown>).securitySchemes).toMatchObject({ bearerAuth: { type: 'http', scheme: 'bearer' } });
    const pub = documentOf('public');
    for (const row of rowsOf('public')) expect(operationOf(pub, row)!.security).toEqual([]);
  });

  it('error statuses: public checks 400 and 429; every account row 401, 403, 429; placing adds 402, 409 and 502', () => {
    const pub = documentOf('public');
    for (const row of rowsOf('public')) {
      expect(Object.keys(operationOf(pub, row)!.responses).sort()).toEqual(['200', '400', '429']);
      expect(Object.keys(pub.paths[row.path]!.post!.responses).sort()).toEqual(['200', '400', '413', '429']);
    }
    const api = documentOf('api');
    for (const row of rowsOf('api')) {
      const statuses = Object.keys(operationOf(api, row)!.responses);
      expect(statuses).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
      // A read's 304 (If-None-Match) has no body; every other status beside 200 is an Error.
      expect(statuses.includes('304'), row.name).toBe(row.method === 'GET');
      for (const status of statuses.filter((s) => s !== '200' && s !== '304')) {
        const response = operationOf(api, row)!.responses[status] as { content: Record<string, { schema: JsonSchema }> };
        expect(response.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    // A row with an id in its path answers 404 when no such thing is the caller's.
    const withPathIds = rowsOf('api').filter((row) => row.params.some((p) => p.in === 'path'));
    expect(withPathIds.length).toBeGreaterThan(0);
    for (const row of withPathIds) expect(Object.keys(operationOf(api, row)!.responses), row.name).toContain('404');
    const place = api.paths['/v1/orders']!.post!;
    expect(Object.keys(place.responses)).toEqual(expect.arrayContaining(['400', '402', '404', '409', '502']));
    const header = (place.parameters as { name: string; in: string; required: boolean }[]).find((p) => p.in === 'header');
    expect(header).toMatchObject({ name: 'Idempotency-Key', required: true });
    expect(api.components.schemas.Error).toMatchObject({ required: ['detail', 'code', 'request_id'] });
  });

  it('every row with a body lists 422, the answer to a field of the wrong shape', () => {
    const api = documentOf('api');
    const bodyRows = rowsOf('api').filter((r) => r.bodyVariable);
    expect(bodyRows.length).toBeGreaterThan(5);
    for (const row of bodyRows) expect(Object.keys(operationOf(api, row)!.responses), row.name).toContain('422');
  });

  it('limits the resolvers enforce appear as enum, maxItems and maxLength', () => {
    const api = documentOf('api');
    const schemas = api.components.schemas as Record<string, { properties: Record<string, JsonSchema> }>;
    expect(schemas.SequencerInput!.properties.sequencer!.enum).toEqual(expect.arrayContaining(['instantly', 'smartlead', 'none']));
    expect(schemas.RaiseRequestInput!.properties.kind!.enum).toEqual(expect.arrayContaining(['forwarding', 'other']));
    expect(schemas.WorkspaceNameInput!.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(schemas.OrderInput!.properties.domains).toMatchObject({ maxItems: 500 });
    expect(schemas.OrderInput!.properties.domains!.description).toMatch(/2,000 mailboxes/);
    expect(schemas.OrderMailboxInput!.properties.local_part).toMatchObject({ maxLength: 64 });
    const analytics = api.paths['/v1/portal/analytics']!.get!.parameters as { name: string; schema: JsonSchema }[];
    expect(analytics.find((p) => p.name === 'period')!.schema.enum).toEqual(['1d', '7d', '14d', '30d', '90d']);

    const pub = documentOf('public');
    const param = (path: string, name: string) =>
      (pub.paths[path]!.get!.parameters as { name: string; schema: JsonSchema; style?: string; explode?: boolean }[]).find((p) => p.name === name)!;
    expect(param('/.platform/functions/check-dns', 'type').schema.enum).toEqual(['MX', 'TXT', 'A', 'AAAA', 'CNAME', 'NS', 'SOA', 'CAA']);
    expect(param('/.platform/functions/check-uribl', 'domains')).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', maxItems: 100 } });
    expect(param('/.platform/functions/verify-email', 'emails').schema.maxItems).toBe(5000);
  });

  it('each public check documents its own typed answer, not an open object', () => {
    const pub = documentOf('public');
    const spf = pointer(pub, answerSchema(pub, rowsOf('public').find((r) => r.name === 'check_spf')!).$ref as string) as JsonSchema;
    const full = (spf.anyOf as JsonSchema[])[0]!;
    const props = full.properties as Record<string, JsonSchema>;
    expect(full.additionalProperties).toBe(false);
    expect([...(props.status!.enum as string[])].sort()).toEqual(['error', 'fail', 'pass', 'warn']);
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['lookup_count', 'expansion_stopped', 'divergence', 'mechanisms', 'matched_mechanism']));
    // Left out without ip, so not required; never null when present.
    expect(full.required).not.toContain('matched_mechanism');
    expect(full.required).toContain('record');
    expect(props.record!.type).toEqual(['string', 'null']);
  });

  it('request bodies come from the GraphQL input types: snake_case names, required fields, unknown fields refused', () => {
    const api = documentOf('api');
    const bodyRows = rowsOf('api').filter((r) => r.bodyVariable);
    for (const row of bodyRows) {
      const body = operationOf(api, row)!.requestBody as { content: Record<string, { schema: JsonSchema }> };
      const schema = pointer(api, body.content['application/json']!.schema.$ref as string) as JsonSchema;
      expect(schema.additionalProperties, row.name).toBe(false);
      for (const name of Object.keys(schema.properties as object)) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
    }
    const order = api.components.schemas.OrderInput as JsonSchema | undefined;
    expect(order?.required).toEqual(expect.arrayContaining(['sku', 'domains']));
    expect(Object.keys(order?.properties ?? {})).toContain('promotion_code');
    const mailbox = api.components.schemas.OrderMailboxInput as JsonSchema;
    expect(Object.keys(mailbox.properties as object)).toEqual(expect.arrayContaining(['first_name', 'last_name', 'local_part']));
    const link = api.components.schemas.CardSetupLinkInput as JsonSchema | undefined;
    // Both return addresses are optional: without them the person lands on the portal (docs/ordering.md).
    expect(Object.keys(link?.properties ?? {})).toEqual(expect.arrayContaining(['success_url', 'cancel_url']));
    expect(link?.required ?? []).not.toContain('success_url');
    // Public checks take POST with the query parameter names as a strict JSON body.
    const pub = documentOf('public');
    const spf = pub.paths['/.platform/functions/check-spf']!.post!;
    const spfBody = (spf.requestBody as { content: Record<string, { schema: JsonSchema }> }).content['application/json']!.schema;
    expect(spfBody).toMatchObject({ required: ['domain'], additionalProperties: false });
  });

  it('answer schemas use the aliases as names and allow null only where GraphQL does', () => {
    const api = documentOf('api');
    const catalogue = answerSchema(api, rowsOf('api').find((r) => r.name === 'list_catalogue')!);
    const entry = ((pointer(api, catalogue.$ref as string) as JsonSchema).properties as Record<string, JsonSchema>).plans!.items as JsonSchema;
    const fields = entry.properties as Record<string, JsonSchema>;
    expect(fields.why_not!.type).toEqual(['string', 'null']);
    expect(fields.unit_amount!.type).toBe('integer');
    expect(fields).not.toHaveProperty('whyNot');
  });
});

describe('real answers conform to the documents', () => {
  const api = () => documentOf('api');

  for (const row of operationTable.filter((r) => r.listener === 'api' && r.method === 'GET' && !r.params.some((p) => p.in === 'path'))) {
    it(`GET ${row.path} answers what its schema says`, async () => {
      const response = await service.api(row.path);
      expect(response.status).toBe(200);
      expect(conforms(await response.json(), answerSchema(api(), row), api())).toEqual([]);
    });
  }

  it('a refusal (401) conforms to the Error schema', async () => {
    const response = await service.api('/v1/portal/dashboard', { key: null });
    expect(response.status).toBe(401);
    expect(conforms(await response.json(), { $ref: '#/components/schemas/Error' }, api())).toEqual([]);
  });

  it('the checker itself catches a wrong answer', () => {
    const row = rowsOf('api').find((r) => r.name === 'check_payment_method')!;
    expect(conforms({ on_file: 'yes' }, answerSchema(api(), row), api()).length).toBeGreaterThan(0);
  });

  for (const [name, query] of [
    ['check_dns', 'domain=good.test&type=txt'],
    ['check_spf', 'domain=good.test'],
    ['check_spf', 'domain=good.test&ip=198.51.100.7'],
    ['check_dmarc', 'domain=good.test'],
    ['check_dkim', 'domain=good.test'],
    ['verify_email', 'emails=alex@good.test,info@bad.test'],
    ['check_nameservers', 'domains=good.test'],
    ['segment_esp', 'domains=good.test,bad.test'],
    ['check_deliverability', 'domain=good.test'],
    ['check_bimi', 'domain=good.test'],
    ['check_mta_sts', 'domain=good.test'],
    ['check_cname', 'host=track.good.test'],
  ] as const) {
    it(`${name}?${query} answers what its typed schema says`, async () => {
      const pub = documentOf('public');
      const row = rowsOf('public').find((r) => r.name === name)!;
      const response = await service.pub(`${row.path}?${query}`);
      expect(response.status).toBe(200);
      expect(conforms(await response.json(), answerSchema(pub, row), pub)).toEqual([]);
    });
  }

  it('a public check answers the CheckAnswer shape', async () => {
    const pub = documentOf('public');
    const response = await service.pub('/.platform/functions/check-dns?domain=good.test&type=MX');
    expect(response.status).toBe(200);
    expect(conforms(await response.json(), { $ref: '#/components/schemas/CheckAnswer' }, pub)).toEqual([]);
  });

  it("a created folder conforms to create_workspace's answer schema", async () => {
    // The row must be there: without it this test would have nothing to compare.
    const row = rowsOf('api').find((r) => r.name === 'create_workspace');
    expect(row).toMatchObject({ method: 'POST', path: '/v1/portal/workspaces' });
    const response = await service.api(row!.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Docs test folder' }),
    });
    expect(response.status).toBe(200);
    expect(conforms(await response.json(), answerSchema(api(), row!), api())).toEqual([]);
  });
});

describe('served documents and reference pages', () => {
  const fetchOn = (listener: 'api' | 'public', path: string) => fetch(`${listener === 'api' ? service.apiUrl : service.publicUrl}${path}`);
  const baseOf = (listener: 'api' | 'public') => (listener === 'api' ? service.services.config.apiUrl : service.services.config.publicUrl);

  for (const listener of listeners) {
    it(`${listener}: GET /openapi.json is the generated document, without a key`, async () => {
      const response = await fetchOn(listener, '/openapi.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument(operationTable, listener, baseOf(listener)))));
    });

    it(`${listener}: GET /docs is a self-contained HTML page listing every path and operation`, async () => {
      const response = await fetchOn(listener, '/docs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await response.text();
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('name="viewport"');
      for (const row of rowsOf(listener)) {
        expect(html, row.path).toContain(`<code class="path">${row.path}</code>`);
        expect(html).toContain(`id="${row.name}"`);
        for (const param of row.params) expect(html).toContain(`<code>${param.name}</code>`);
      }
      expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    });
  }

  it("api /docs shows each operation's scope, body fields and errors", async () => {
    const html = await (await fetchOn('api', '/docs')).text();
    expect(html).toContain('Scope <span class="scope">orders:place</span>');
    expect(html).toContain('<code>domains[].mailboxes[].local_part</code>');
    expect(html).toContain('<dt>409</dt>');
    expect(html.includes('<code>plans[].why_not</code>')).toBe(true);
  });

  it('/docs answers 405 to POST', async () => {
    const response = await fetch(`${service.apiUrl}/docs`, { method: 'POST' });
    expect(response.status).toBe(405);
  });
});
