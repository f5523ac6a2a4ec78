import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSchema, schema } from '../../schema/index.js';
import { checkDeclarations } from '../../schema/check-declarations.js';
import { checkSelection, wireNames } from '../../schema/check-document.js';
import { declaredSchema } from '../../schema/index.js';
import { CHECKS_PAGE_SCRIPT } from '../../web/checks-page-script.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

const ACCOUNT_TYPES = ['Workspace', 'OrderInput', 'PlacedOrder', 'Billing', 'Analytics', 'Dashboard', 'OrderSettings', 'PaymentMethod', 'DateTime'];

describe('the public schema', () => {
  it('holds the check fields only: no Mutation, no account type', () => {
    expect(publicSchema.getMutationType()).toBeUndefined();
    expect(Object.keys(publicSchema.getQueryType()!.getFields()).sort()).toEqual(checkDeclarations.map((d) => d.field).sort());
    for (const name of ACCOUNT_TYPES) expect(publicSchema.getType(name), name).toBeUndefined();
    // The account schema still has them all, and the same check fields.
    expect(schema.getMutationType()?.getFields().placeOrder).toBeDefined();
    for (const d of checkDeclarations) expect(schema.getQueryType()!.getFields()[d.field]).toBeDefined();
  });
});

describe("the public listener's /graphql", () => {
  let dns: TestDnsServer;
  let service: TestService;
  beforeAll(async () => {
    dns = await startTestDnsServer({ records: fixtureZone });
    service = await startTestService({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '500', DNS_TRIES: '1' }, rateLimits: { public: 10_000 } });
  });
  afterAll(async () => {
    await service?.close();
    await dns?.close();
  });

  const post = async (on: 'pub' | 'api', query: string, key?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const response =
      on === 'pub'
        ? await service.pub('/graphql', {
            method: 'POST',
            headers: key ? { ...headers, authorization: `Bearer ${key}` } : headers,
            body: JSON.stringify({ query }),
          })
        : await service.api('/graphql', { method: 'POST', headers, body: JSON.stringify({ query }) });
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: { message: string }[] } };
  };

  it('introspection lists no Mutation and no account type', async () => {
    const { body } = await post('pub', '{ __schema { mutationType { name } types { name } queryType { fields { name } } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.mutationType).toBeNull();
    const types = body.data.__schema.types.map((t: { name: string }) => t.name);
    for (const name of ACCOUNT_TYPES) expect(types).not.toContain(name);
    const fields = body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    expect(fields).not.toContain('dashboard');
    expect(fields).toContain('checkSpf');
    // The account listener still lists placeOrder.
    const onApi = await post('api', '{ __schema { mutationType { fields { name } } } }');
    expect(onApi.body.data.__schema.mutationType.fields.map((f: { name: string }) => f.name)).toContain('placeOrder');
  });

  it('refuses a mutation, even with a valid write key, and nothing is written', async () => {
    const before = (await (await service.api('/v1/portal/workspaces')).json()).workspaces.length;
    const { status, body } = await post('pub', 'mutation { createWorkspace(input: { name: "via public" }) { workspaceId } }', service.demo.key);
    // Refused in validation (server/refuse-missing-operation-type.ts): a 400 saying where changes go.
    expect(status).toBe(400);
    expect(body.data ?? null).toBeNull();
    expect((body.errors?.[0] as { extensions?: { code?: string } } | undefined)?.extensions?.code).toBe('operation_not_supported');
    expect(body.errors?.[0]?.message).toMatch(/public checks only and has no mutations/);
    const reading = await post('pub', '{ dashboard { __typename } }', service.demo.key);
    expect(reading.body.errors?.[0]?.message).toMatch(/dashboard/);
    const after = (await (await service.api('/v1/portal/workspaces')).json()).workspaces.length;
    expect(after).toBe(before);
  });

  it('answers the checks with typed fields, one selection for many checks', async () => {
    const { body } = await post(
      'pub',
      `{
      dmarc: checkDmarc(domain: "good.test") { ... on DmarcAnswer { status effectivePolicy reportDestinations { tag } } }
      mx: checkDns(domain: "good.test", type: MX) { ... on DnsAnswer { type records { ... on MxRecordAnswer { exchange preference } } } }
      esp: segmentEsp(domains: ["good.test", "bad.test"]) { ... on CheckAnswer { status findings { severity code } } ... on SegmentEspAnswer { counts { google other unresolved } } }
    }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.dmarc).toMatchObject({ status: 'pass', effectivePolicy: 'reject' });
    expect(body.data.mx).toEqual({ type: 'MX', records: [{ exchange: 'mx.good.test', preference: 10 }] });
    expect(typeof body.data.esp.counts.other).toBe('number');
  });

  it("the checks page's one query (the grade and ten checks, every field, no aliases) fits the limits and answers", async () => {
    const select = (field: string) => checkSelection(declaredSchema, checkDeclarations.find((d) => d.field === field)!);
    expect(CHECKS_PAGE_SCRIPT).toContain(JSON.stringify(select('checkSpf')));
    const calls = [
      'grade: checkDeliverability(domain: $domain)',
      'spf: checkSpf(domain: $domain)',
      'dkim: checkDkim(domain: $domain)',
      'dmarc: checkDmarc(domain: $domain)',
      'mx: checkDns(domain: $domain, type: MX)',
      'blacklist: checkBlacklist(input: $domain)',
      'expiry: checkDomainExpiry(domain: $domain)',
      'mtaSts: checkMtaSts(domain: $domain)',
      'bimi: checkBimi(domain: $domain)',
      'nameservers: checkNameservers(domains: [$domain])',
      'provider: checkProviderDomain(domain: $domain)',
    ];
    const query = `query ChecksPage($domain: String!) { ${calls.map((c) => `${c} ${select(c.split(': ')[1]!.split('(')[0]!)}`).join(' ')} }`;
    const response = await service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { domain: 'good.test' } }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.grade.grade).toMatch(/^[A-F]$/);
    expect(body.data.dmarc.effectivePolicy).toBe('reject');
    // The page turns the camelCase names back into the documented ones.
    expect(wireNames(declaredSchema).effectivePolicy).toBe('effective_policy');
    expect(wireNames(declaredSchema).findings).toBeUndefined();
  });

  it('refuses a wrong DNS type and a missing domain before any check runs', async () => {
    expect((await post('pub', '{ checkDns(domain: "good.test", type: "mx") { __typename } }')).body.errors?.[0]?.message).toMatch(/DnsType/);
    expect((await post('pub', '{ checkDmarc { __typename } }')).body.errors?.[0]?.message).toMatch(/domain/);
  });
});
