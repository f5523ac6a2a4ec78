import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { rdapDomain, startTestRdapServer, type TestRdapServer } from '../support/rdap-server.js';

/**
 * Every check answer's `dnssec` through the running service, on REST, /graphql and MCP, against a
 * test resolver that validates as unbound does: AD on the answers of signed zones when asked with DO
 * or AD, SERVFAIL with Extended DNS Error 7 for a zone whose signatures expired (and the generic 6
 * from its cache on a later try), SERVFAIL with 22 "no reachable authority" (13 from cache).
 */
const txt = (name: string, text: string): ZoneRecord => ({ name, type: 'TXT', data: [text] });
const a = (name: string, address: string): ZoneRecord => ({ name, type: 'A', data: address });

const records: ZoneRecord[] = [
  // Signed throughout: the SPF record and the record it includes are both validated.
  txt('signed.example', 'v=spf1 include:_spf.signed.example -all'),
  txt('_spf.signed.example', 'v=spf1 ip4:192.0.2.0/24 -all'),
  a('www.signed.example', '192.0.2.10'),
  // Signed, but its SPF includes a record in an unsigned zone.
  txt('mixed.example', 'v=spf1 include:_spf.unsigned.example -all'),
  txt('_spf.unsigned.example', 'v=spf1 ip4:198.51.100.0/24 -all'),
  // Signed, with an MTA-STS record; the policy host's own answers fail validation (EDE 9).
  txt('_mta-sts.sts.example', 'v=STSv1; id=20261101'),
  { name: 'sts.example', type: 'MX', data: { preference: 10, exchange: 'mx.sts.example' } },
  a('mx.sts.example', '192.0.2.25'),
];

const DOORS = ['rest', 'graphql', 'mcp'] as const;
type Door = (typeof DOORS)[number];

let dns: TestDnsServer;
let rdap: TestRdapServer;
let service: TestService;
let mcp: Client;
beforeAll(async () => {
  dns = await startTestDnsServer({
    records,
    secure: ['signed.example', 'mixed.example', 'sts.example'],
    extendedErrors: {
      'mta-sts.sts.example': { code: 9, text: 'no DNSKEY for sts.example' },
      '*.expired.example': { code: 7, text: 'RRSIG for expired.example expired on 2026-11-01', cached: 6 },
      '*.flaky.example': { code: 22, text: 'no reachable authority', cached: 13 },
    },
  });
  rdap = await startTestRdapServer({
    tlds: ['example'],
    domains: { 'signed.example': rdapDomain('signed.example', 'Example Registrar', '2015-03-01T00:00:00Z', '2031-03-01T00:00:00Z') },
  });
  service = await startTestService({
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000', DNS_TRIES: '2', RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, REGISTRATION_TIMEOUT_MS: '1000' },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
  });
  mcp = new Client({ name: 'test', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.publicUrl}/mcp`)));
});
afterAll(async () => {
  await mcp?.close();
  await service?.close();
  await dns?.close();
  await rdap?.close();
});

const rowOf = (operationId: string) => publicCheckRows.find((r) => r.name === operationId)!;

/** One check through each door, answered as REST answers it (GraphQL through the row's own document, reshaped). */
const doors: Record<Door, (operationId: string, args: Record<string, string>) => Promise<any>> = {
  async rest(operationId, args) {
    const response = await service.pub(`${rowOf(operationId).path}?${new URLSearchParams(args)}`);
    expect(response.status).toBe(200);
    return response.json();
  },
  async graphql(operationId, args) {
    const row = rowOf(operationId);
    const response = await service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: loadDocument(row.document).source, variables: args }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    return rowAnswer(schema, row, body.data);
  },
  async mcp(operationId, args) {
    const tool = await mcp.callTool({ name: operationId, arguments: args });
    expect(tool.isError).toBeFalsy();
    return JSON.parse((tool.content as { text: string }[])[0]!.text);
  },
};
const through = (door: Door, operationId: string, args: Record<string, string>): Promise<any> => doors[door](operationId, args);

/** The same check through all three doors; the answers must be equal. */
async function throughEveryDoor(operationId: string, args: Record<string, string>): Promise<any> {
  const [rest, gql, viaMcp] = await Promise.all(DOORS.map((door) => through(door, operationId, args)));
  expect(gql).toEqual(rest);
  expect(viaMcp).toEqual(rest);
  return rest;
}

describe('secure: the resolver set AD on every answer the check used', () => {
  it('check-spf of a signed domain whose include is signed too', async () => {
    const answer = await throughEveryDoor('check_spf', { domain: 'signed.example' });
    expect(answer.status).toBe('pass');
    expect(answer.dnssec).toEqual({
      status: 'secure',
      reason: 'The resolver validated all 2 DNS answers this check used (AD set on each).',
      answers: 2,
      validated: 2,
      name: null,
      type: null,
      extended_dns_error: null,
    });
  });

  it('asked with DO in the OPT record and AD in the header', async () => {
    const before = dns.questions.length;
    await through('rest', 'check_dns', { domain: 'www.signed.example', type: 'A' });
    expect(dns.questions.slice(before)).toEqual([expect.objectContaining({ name: 'www.signed.example', dnssecOk: true, authenticatedData: true })]);
  });
});

describe('insecure: one answer without AD is enough', () => {
  it('check-spf of a signed domain including a record of an unsigned zone names that record', async () => {
    const answer = await throughEveryDoor('check_spf', { domain: 'mixed.example' });
    expect(answer.status).toBe('pass');
    expect(answer.dnssec).toEqual({
      status: 'insecure',
      reason:
        '1 of the 2 DNS answers this check used came without AD, so they were not validated (first: TXT _spf.unsigned.example): the zone is not signed, or the resolver in DNS_SERVERS does not validate DNSSEC.',
      answers: 2,
      validated: 1,
      name: '_spf.unsigned.example',
      type: 'TXT',
      extended_dns_error: null,
    });
  });
});

describe('bogus: SERVFAIL with Extended DNS Error 7, not retried, the reason kept', () => {
  // The resolver answers a repeated question from its cache with the generic code 6, so each door
  // asks its own name: what it shows is what the first (and only) answer said.
  for (const door of DOORS) {
    it(`${door}: check-dns answers bogus with "signature has expired", asked once with DNS_TRIES=2`, async () => {
      const name = `${door}.expired.example`;
      const before = dns.questions.length;
      const answer = await through(door, 'check_dns', { domain: name, type: 'A' });
      expect(answer.status).toBe('error');
      expect(answer.dnssec).toEqual({
        status: 'bogus',
        reason: `The resolver failed DNSSEC validation of A ${name}: the DNSSEC signature has expired (Extended DNS Error 7: RRSIG for expired.example expired on 2026-11-01).`,
        answers: 1,
        validated: 0,
        name,
        type: 'A',
        extended_dns_error: { code: 7, meaning: 'the DNSSEC signature has expired', text: 'RRSIG for expired.example expired on 2026-11-01' },
      });
      expect(dns.questions.slice(before).filter((q) => q.name === name)).toHaveLength(1);
    });
  }
});

describe('the addresses an HTTPS fetch resolved count too', () => {
  it('check-mta-sts is bogus when the policy host fails validation, though its own records are secure', async () => {
    const answer = await throughEveryDoor('check_mta_sts', { domain: 'sts.example' });
    expect(answer.record).toBe('v=STSv1; id=20261101');
    // Asked: _mta-sts TXT, the policy host's A and AAAA (both bogus), MX, _smtp._tls TXT; A was asked before AAAA.
    expect(answer.dnssec).toEqual({
      status: 'bogus',
      reason:
        "The resolver failed DNSSEC validation of A mta-sts.sts.example: the zone's DNSKEY record is missing, so its signatures cannot be checked (Extended DNS Error 9: no DNSKEY for sts.example). 2 of the 5 answers failed validation.",
      answers: 5,
      validated: 3,
      name: 'mta-sts.sts.example',
      type: 'A',
      extended_dns_error: { code: 9, meaning: "the zone's DNSKEY record is missing, so its signatures cannot be checked", text: 'no DNSKEY for sts.example' },
    });
  });
});

describe('indeterminate: the resolver could not tell', () => {
  for (const door of DOORS) {
    it(`${door}: check-dmarc behind a SERVFAIL with EDE 22 is retried and keeps the first reply's code, not the cache's 13`, async () => {
      const name = `_dmarc.${door}.flaky.example`;
      const before = dns.questions.length;
      const answer = await through(door, 'check_dmarc', { domain: `${door}.flaky.example` });
      expect(answer.status).toBe('error');
      expect(answer.dnssec).toMatchObject({
        status: 'indeterminate',
        name,
        type: 'TXT',
        validated: 0,
        extended_dns_error: { code: 22, meaning: "the resolver could reach none of the zone's authoritative servers", text: 'no reachable authority' },
      });
      expect(answer.dnssec.reason).toBe(
        `The DNSSEC status of TXT ${name} is unknown: the resolver failed to look up TXT ${name} (SERVFAIL): the resolver could reach none of the zone's authoritative servers (Extended DNS Error 22: no reachable authority).`,
      );
      expect(dns.questions.slice(before).filter((q) => q.name === name)).toHaveLength(2);
    });
  }
});

describe('null: a check that asked no DNS question', () => {
  it('check-domain-expiry answered over RDAP has dnssec null on every door', async () => {
    const answer = await throughEveryDoor('check_domain_expiry', { domain: 'signed.example' });
    expect(answer).toMatchObject({ registered: true, source: 'rdap', registrar: 'Example Registrar' });
    expect(answer.dnssec).toBeNull();
  });
});

describe('GraphQL: dnssec on the CheckAnswer interface, its status an enum', () => {
  it('one request asks three checks through the interface and gets each its own status', async () => {
    const query = `query {
      signed: checkSpf(domain: "signed.example") { ... on CheckAnswer { dnssec { status validated } } }
      mixed: checkSpf(domain: "mixed.example") { ... on CheckAnswer { dnssec { status name } } }
      expired: checkDns(domain: "gql-enum.expired.example", type: A) { ... on CheckAnswer { dnssec { status extendedDnsError { code } } } }
    }`;
    const response = await service.pub('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      signed: { dnssec: { status: 'secure', validated: 2 } },
      mixed: { dnssec: { status: 'insecure', name: '_spf.unsigned.example' } },
      expired: { dnssec: { status: 'bogus', extendedDnsError: { code: 7 } } },
    });
    const schema = await service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __type(name: "DnssecStatus") { kind enumValues { name } } }' }),
    });
    expect((await schema.json()).data.__type).toEqual({
      kind: 'ENUM',
      enumValues: [{ name: 'bogus' }, { name: 'indeterminate' }, { name: 'insecure' }, { name: 'secure' }],
    });
  });
});

describe('OpenAPI describes the field', () => {
  it("every check's answer in /openapi.json, finished or cut off, requires dnssec with the four statuses", async () => {
    const spec = await (await service.pub('/openapi.json')).json();
    const paths = Object.entries(spec.paths as Record<string, any>).filter(([path]) => path.startsWith('/.platform/functions/'));
    expect(paths).toHaveLength(publicCheckRows.length);
    for (const [, item] of paths) {
      const ref: string = item.get.responses['200'].content['application/json'].schema.$ref;
      const answer = spec.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(answer.anyOf.length).toBe(2);
      for (const kind of answer.anyOf) {
        expect(kind.required).toContain('dnssec');
        expect(kind.properties.dnssec.type).toEqual(['object', 'null']);
        expect(kind.properties.dnssec.properties.status.enum).toEqual(['bogus', 'indeterminate', 'insecure', 'secure']);
        expect(kind.properties.dnssec.required).toEqual(['status', 'reason', 'answers', 'validated', 'name', 'type', 'extended_dns_error']);
      }
    }
  });
});
