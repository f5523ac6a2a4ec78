import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isNonNullType, isListType, isUnionType, isObjectType, printSchema, type GraphQLField } from 'graphql';
import { schema, publicSchema } from '../../schema/index.js';
import { checkDeclarations, resultTypeName } from '../../schema/check-declarations.js';
import type { FullCheckContext } from '../../resolvers/checks/full-check-context.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { camelToSnake } from '../../schema/wire-field-extension.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('the check fields are typed', () => {
  it('no JSON scalar is left in either schema', () => {
    for (const s of [schema, publicSchema]) {
      expect(s.getType('JSON')).toBeUndefined();
      expect(printSchema(s)).not.toMatch(/\bJSON\b(?! object)/);
    }
  });

  it('each check answers its own object type (or UnfinishedCheck), with the common fields typed as enums', () => {
    const query = schema.getQueryType()!.getFields();
    for (const d of checkDeclarations) {
      const field = query[d.field]!;
      expect(isNonNullType(field.type), d.field).toBe(true);
      const union = getNamedType(field.type);
      expect(isUnionType(union) && union.name, d.field).toBe(resultTypeName(d));
      if (!isUnionType(union)) continue;
      expect(
        union
          .getTypes()
          .map((t) => t.name)
          .sort(),
      ).toEqual([d.answer, 'UnfinishedCheck'].sort());
      const answer = schema.getType(d.answer);
      if (!isObjectType(answer)) throw new Error(`${d.answer} is not an object type`);
      expect(answer.getInterfaces().map((i) => i.name)).toEqual(['CheckAnswer']);
      expect(String(answer.getFields().status!.type)).toBe('CheckStatus!');
      expect(String((schema.getType('Finding') as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields().severity!.type)).toBe(
        'Severity!',
      );
    }
  });

  it('each check answer field exposes the key of its own name: the checks return the GraphQL shape', () => {
    let exposed = 0;
    const underAnotherName: string[] = [];
    const withWireName: string[] = [];
    const seen = new Set<string>();
    const visit = (type: ReturnType<typeof getNamedType> | undefined | null): void => {
      if (!type || seen.has(type.name)) return;
      seen.add(type.name);
      if (isUnionType(type)) for (const member of type.getTypes()) visit(member);
      if (!isObjectType(type)) return;
      for (const field of Object.values(type.getFields())) {
        const extensions = field.extensions as { pothosExposedField?: string; wireName?: string };
        // No wire name of its own either: REST and MCP take the snake_case of the field's name.
        if (extensions.wireName !== undefined) withWireName.push(`${type.name}.${field.name}`);
        if (extensions.pothosExposedField !== undefined) exposed += 1;
        if (extensions.pothosExposedField !== undefined && extensions.pothosExposedField !== field.name)
          underAnotherName.push(`${type.name}.${field.name} exposes ${extensions.pothosExposedField}`);
        visit(getNamedType(field.type));
      }
    };
    for (const d of checkDeclarations) visit(schema.getType(resultTypeName(d)));
    expect(underAnotherName).toEqual([]);
    expect(withWireName).toEqual([]);
    expect(exposed).toBeGreaterThan(400);
  });

  it('arguments are typed as they are: String! for names, [String!]! for bulk inputs, an enum for the DNS type', () => {
    const query = schema.getQueryType()!.getFields();
    const argType = (field: string, arg: string) => String(query[field]!.args.find((a) => a.name === arg)!.type);
    expect(argType('checkSpf', 'domain')).toBe('String!');
    expect(argType('checkSpf', 'ip')).toBe('String');
    expect(argType('checkUribl', 'domains')).toBe('[String!]!');
    expect(argType('verifyEmail', 'emails')).toBe('[String!]!');
    expect(argType('segmentEsp', 'domains')).toBe('[String!]!');
    expect(argType('checkDns', 'type')).toBe('DnsType');
    expect(argType('checkBlacklist', 'input')).toBe('String!');
    expect(query.verifyEmail!.args[0]!.description).toMatch(/at most 5,000/);
  });

  it('the fields added this week are in the types', () => {
    const fields = (type: string) => Object.keys((schema.getType(type) as { getFields(): object }).getFields());
    expect(fields('SpfAnswer')).toEqual(expect.arrayContaining(['expansionStopped', 'divergence', 'lookupCount']));
    expect(fields('SpfTerm')).toContain('pastLimit');
    expect(fields('NameserverResult')).toEqual(expect.arrayContaining(['dnssec', 'delegation']));
    expect(fields('DnsblListResult')).toContain('alive');
    expect(fields('DeliverabilityAnswer')).toContain('uncheckedWeight');
    expect(fields('MarkCertificate')).toContain('chainTrusted');
    expect(fields('EmailResult')).toContain('mxIssues');
    expect(String((schema.getType('EmailResult') as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields().mxIssues!.type)).toBe(
      '[Finding!]!',
    );
  });

  it('each declaration gives one operation-table row with the same name, parameters and document', () => {
    expect(publicCheckRows.map((r) => r.document)).toEqual(checkDeclarations.map((d) => d.name));
    for (const d of checkDeclarations) {
      const row = publicCheckRows.find((r) => r.document === d.name)!;
      expect(row.unwrap).toBe(d.field);
      expect(row.params.map((p) => [p.name, p.required])).toEqual(d.args.map((a) => [a.name, a.required]));
      const listArgs = d.args.filter((a) => a.kind === 'list');
      for (const a of listArgs) expect(row.params.find((p) => p.name === a.name)).toMatchObject({ list: true, maxItems: a.maxItems });
      const field = schema.getQueryType()!.getFields()[d.field]!;
      expect(field.args.map((a) => a.name).sort()).toEqual(d.args.map((a) => a.name).sort());
      for (const a of field.args) if (isListType(a.type)) throw new Error('a nullable list argument');
    }
  });
});

/** Every key in snake_case, at every depth (the answers of these examples hold no key that is data). */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelToSnake(k), snakeKeys(v)]));
}

/**
 * The REST answer is the GraphQL answer selected with the printed document: it must hold exactly what
 * the check function returns, so no field is forgotten in the types and none is invented.
 */
describe('REST answers equal what the check functions return', () => {
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

  const examples: [string, Record<string, string>][] = [
    ['check-spf', { domain: 'good.test' }],
    ['check-spf', { domain: 'good.test', ip: '198.51.100.7' }],
    ['check-spf', { domain: 'bad.test', ip: '192.0.2.1' }],
    ['check-dmarc', { domain: 'good.test' }],
    ['check-dmarc', { domain: 'bücher.test' }],
    ['check-dkim', { domain: 'good.test', selector: 'google' }],
    ['check-dns', { domain: 'good.test', type: 'TXT' }],
    ['check-dns', { domain: 'good.test', type: 'MX' }],
    ['check-cname', { host: 'track.good.test', expected: 'links.mailer.test' }],
    ['verify-email', { emails: 'alex@good.test,info@bad.test,bad-syntax' }],
    ['segment-esp', { domains: 'good.test,bad.test' }],
  ];
  for (const [name, args] of examples) {
    it(`${name} ${JSON.stringify(args)}`, async () => {
      const declaration = checkDeclarations.find((d) => d.name === name)!;
      const direct = await declaration.run(args, dnsOnlyCheckContext(dns) as FullCheckContext);
      const { dnssec, ...rest } = await (await service.pub(`/.platform/functions/${name}?${new URLSearchParams(args)}`)).json();
      // The check returns the GraphQL shape; REST answers its keys in snake_case (operations/wire-shape.ts).
      expect(rest).toEqual(snakeKeys(JSON.parse(JSON.stringify(direct))));
      // The one field a door adds to what the check returns (the fixture zone is not signed).
      expect(dnssec).toMatchObject({ status: 'insecure', validated: 0, extended_dns_error: null });
    });
  }
});
