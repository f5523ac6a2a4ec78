import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsblTestPoints } from '../support/dnsbl-test-points.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Issue 21 items 4-7 through the running service, on REST, /graphql and MCP: the grade of a domain
 * whose only DKIM answer is a wildcard, a 512-bit key in a selector scan, a resolver that does not
 * recurse, and one question per name whatever its case or trailing dot across 2,000 addresses.
 */
const spki = (bits: number): string => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const rsa2048 = spki(2048);
const rsa512 = spki(512);

const txt = (name: string, text: string): ZoneRecord => ({ name, type: 'TXT', data: [text] });
const a = (name: string, address: string): ZoneRecord => ({ name, type: 'A', data: address });

/** A sender in order but for DKIM: SPF, DMARC p=reject with reports, an MX host with an address. */
const sender = (domain: string): ZoneRecord[] => [
  txt(domain, 'v=spf1 ip4:198.51.100.0/24 -all'),
  txt(`_dmarc.${domain}`, `v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`),
  { name: domain, type: 'MX', data: { preference: 10, exchange: `mx.${domain}` } },
  a(`mx.${domain}`, '192.0.2.1'),
];

/** 400 domains whose MX names one host spelled five ways (case, trailing dot). */
const SPELLINGS = ['aspmx.l.google.com', 'ASPMX.L.GOOGLE.COM.', 'Aspmx.L.Google.com', 'aspmx.l.google.com.', 'AsPmX.l.GoOgLe.CoM'];
const mailDomains = Array.from({ length: 400 }, (_, i) => `d${i}.mail.example`);

const records: ZoneRecord[] = [
  ...dnsblTestPoints(),
  // A wildcard TXT (an SPF record for every name) and no DKIM key of its own.
  ...sender('wild.example'),
  txt('*.wild.example', 'v=spf1 ip4:198.51.100.0/24 -all'),
  // A valid key at google and a 512-bit one at default.
  ...sender('weak.example'),
  txt('google._domainkey.weak.example', `v=DKIM1; k=rsa; p=${rsa2048}`),
  txt('default._domainkey.weak.example', `v=DKIM1; k=rsa; p=${rsa512}`),
  ...mailDomains.map((d, i): ZoneRecord => ({ name: d, type: 'MX', data: { preference: 1, exchange: SPELLINGS[i % SPELLINGS.length]! } })),
  a('aspmx.l.google.com', '192.0.2.25'),
];

let dns: TestDnsServer;
let service: TestService;
let mcp: Client;
beforeAll(async () => {
  // A validating resolver on a zone whose signatures expired: SERVFAIL with EDE 7 (unbound, bind9).
  dns = await startTestDnsServer({ records, extendedErrors: { 'expired.example': { code: 7, text: 'RRSIG for expired.example expired' } } });
  service = await startTestService({
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000', DNS_TRIES: '2', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', REGISTRATION_TIMEOUT_MS: '300' },
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
});

/** One check through REST GET, /graphql (the row's own document) and MCP; the three answers must be equal. */
async function throughEveryDoor(operationId: string, args: Record<string, string>): Promise<any> {
  const row = publicCheckRows.find((r) => r.name === operationId)!;
  const get = await service.pub(`${row.path}?${new URLSearchParams(args)}`);
  expect(get.status).toBe(200);
  const rest = await get.json();
  const response = await service.pub('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: loadDocument(row.document).source, variables: args }),
  });
  const body = await response.json();
  expect(body.errors).toBeUndefined();
  const gql = rowAnswer(schema, row, body.data);
  const tool = await mcp.callTool({ name: operationId, arguments: args });
  expect(tool.isError).toBeFalsy();
  const viaMcp = JSON.parse((tool.content as { text: string }[])[0]!.text);
  expect(gql).toEqual(rest);
  expect(viaMcp).toEqual(rest);
  return rest;
}

describe('item 4: no DKIM found under a wildcard caps the grade', () => {
  it('a wildcard TXT and no key of its own: DKIM scored as missing, the grade capped at C', async () => {
    const answer = await throughEveryDoor('check_deliverability', { domain: 'wild.example' });
    expect(answer.breakdown.dkim).toMatchObject({ score: 0, cap: 'C' });
    expect(answer.grade).toBe('C');
    expect(answer.caps.map((c: any) => c.code)).toContain('dkim_missing');
    expect(answer.fixes.find((f: any) => f.code === 'dkim_missing')).toMatchObject({ part: 'dkim', caps_grade_at: 'C' });
  });
});

describe('item 5: a 512-bit key is an error on both paths', () => {
  it('asked by its selector', async () => {
    const answer = await throughEveryDoor('check_dkim', { domain: 'weak.example', selector: 'default' });
    expect(answer.status).toBe('fail');
    expect(answer.findings).toEqual([expect.objectContaining({ code: 'dkim_key_too_weak', severity: 'error' })]);
  });

  it('found by the selector scan beside a valid key', async () => {
    const answer = await throughEveryDoor('check_dkim', { domain: 'weak.example' });
    expect(answer.keys.map((k: any) => [k.selector, k.valid, k.key_bits])).toEqual([
      ['google', true, 2048],
      ['default', false, 512],
    ]);
    expect(answer.findings).toEqual([expect.objectContaining({ code: 'dkim_key_too_weak', severity: 'error' })]);
    expect(answer.status).toBe('fail');
  });
});

describe('item 7: one question per name, whatever its case or trailing dot', () => {
  it('verify-email over 2,000 addresses asks `aspmx.l.google.com A` once', async () => {
    const emails = Array.from({ length: 2000 }, (_, i) => `user${i}@${mailDomains[i % mailDomains.length]}`);
    const before = dns.questions.length;
    const response = await service.pub('/.platform/functions/verify-email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emails }),
    });
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.results).toHaveLength(2000);
    expect(answer.results.every((r: any) => r.valid === true)).toBe(true);
    const asked = dns.questions.slice(before);
    expect(asked.filter((q) => q.name === 'aspmx.l.google.com' && q.type === 'A')).toHaveLength(1);
    const distinct = new Set(asked.map((q) => `${q.name}|${q.type}`));
    expect(asked.length).toBe(distinct.size);
  });
});

describe('item 6: a resolver that does not recurse is asked once per question', () => {
  let authoritativeOnly: TestDnsServer;
  let misconfigured: TestService;
  beforeAll(async () => {
    // bind9 serving its own zone, not recursing: RA clear on every reply.
    authoritativeOnly = await startTestDnsServer({ records: sender('zone.example'), recursionAvailable: false });
    misconfigured = await startTestService({
      env: { DNS_SERVERS: authoritativeOnly.server, DNS_TIMEOUT_MS: '1000', DNS_TRIES: '2' },
      googleTenancy: { probe: async () => 'unknown' },
      rateLimits: { public: 10_000 },
    });
  });
  afterAll(async () => {
    await misconfigured?.close();
    await authoritativeOnly?.close();
  });

  it('the answer names the configuration error and the question went on the wire once, with DNS_TRIES=2', async () => {
    const before = authoritativeOnly.questions.length;
    const response = await misconfigured.pub('/.platform/functions/check-dns?domain=zone.example&type=MX');
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.status).toBe('error');
    expect(JSON.stringify(answer)).toMatch(/DNS_SERVERS points at a server that does not recurse/);
    expect(authoritativeOnly.questions.slice(before).map((q) => `${q.name} ${q.type}`)).toEqual(['zone.example MX']);
  });
});

describe('item 3 (in part): a SERVFAIL whose Extended DNS Error says bogus is not retried', () => {
  it('check-dns answers with the first reply\'s "signature has expired", asked once with DNS_TRIES=2', async () => {
    const before = dns.questions.length;
    const answer = await throughEveryDoor('check_dns', { domain: 'expired.example', type: 'A' });
    expect(answer.status).toBe('error');
    expect(JSON.stringify(answer)).toMatch(/the DNSSEC signature has expired \(Extended DNS Error 7: RRSIG for expired\.example expired\)/);
    // Three doors, one question each: none was retried.
    expect(dns.questions.slice(before).filter((q) => q.name === 'expired.example')).toHaveLength(3);
  });
});
