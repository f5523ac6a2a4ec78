import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';
import { startTestDnsServer, startTestDnsServersOnOnePort, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Issue 21 item 1 and 2: delegation health through the running service, on every door. The service
 * asks a local resolver (DNS_SERVERS) and the name servers themselves directly, all on one port
 * (DNS_AUTHORITATIVE_PORT): a parent (`example`, referrals with glue, AA clear, RA clear as bind9
 * serving a zone), authoritative servers, a server that refuses, a lame one answering from a cache
 * without AA, and two that never answer.
 */
const soa = (zone: string, serial: number): ZoneRecord => ({
  name: zone,
  type: 'SOA',
  data: { mname: `ns1.${zone}`, rname: `hostmaster.${zone}`, serial, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
});
const ns = (zone: string, ...servers: string[]): ZoneRecord[] => servers.map((data) => ({ name: zone, type: 'NS' as const, data }));
const a = (name: string, data: string): ZoneRecord => ({ name, type: 'A', data });

const ZONES = ['healthy.example', 'mismatch.example', 'serial.example', 'refused.example', 'lame.example'];

let resolver: TestDnsServer;
let direct: TestDnsServer[];
let service: TestService;
let mcp: Client;
beforeAll(async () => {
  direct = await startTestDnsServersOnOnePort([
    {
      // The parent zone's server: a referral for each child, with glue for servers inside the child.
      address: '127.0.0.2',
      zones: ['example'],
      delegations: ZONES,
      recursionAvailable: false,
      records: [
        ...ns('healthy.example', 'ns1.healthy.example', 'ns2.healthy.example'),
        a('ns1.healthy.example', '127.0.0.3'),
        a('ns2.healthy.example', '127.0.0.4'),
        // The registrar still lists a retired server; the zone's own NS records list another.
        ...ns('mismatch.example', 'ns1.healthy.example', 'ns-old.mismatch.example'),
        ...ns('serial.example', 'ns1.healthy.example', 'ns-behind.serial.example'),
        a('ns-behind.serial.example', '127.0.0.6'),
        ...ns('refused.example', 'ns1.healthy.example', 'ns.refuser.test'),
        // Every server of lame.example is lame or silent.
        ...ns('lame.example', 'ns1.lame.example', 'ns2.lame.example', 'ns3.lame.example', 'ns4.lame.example'),
        a('ns1.lame.example', '127.0.0.7'),
        a('ns2.lame.example', '127.0.0.5'),
        a('ns3.lame.example', '127.0.0.8'),
        a('ns4.lame.example', '127.0.0.9'),
      ],
    },
    {
      address: '127.0.0.3',
      zones: ['healthy.example', 'mismatch.example', 'serial.example', 'refused.example'],
      recursionAvailable: false,
      records: [soa('healthy.example', 10), soa('mismatch.example', 5), soa('serial.example', 10), soa('refused.example', 3)],
    },
    {
      address: '127.0.0.4',
      zones: ['healthy.example', 'mismatch.example'],
      recursionAvailable: false,
      records: [soa('healthy.example', 10), soa('mismatch.example', 5)],
    },
    // Lame: a resolver's cache holds the zone's SOA, so it answers, without AA.
    { address: '127.0.0.5', authoritative: false, records: [soa('lame.example', 1)] },
    // A secondary behind on zone transfers.
    { address: '127.0.0.6', zones: ['serial.example'], recursionAvailable: false, records: [soa('serial.example', 9)] },
    // bind9 asked about a zone it does not serve: REFUSED.
    { address: '127.0.0.7', recursionAvailable: false, records: [], behaviours: { 'refused.example': 'refused', 'lame.example': 'refused' } },
    // Nothing answers there.
    { address: '127.0.0.8', recursionAvailable: false, records: [], behaviours: { 'lame.example': 'timeout' } },
    { address: '127.0.0.9', recursionAvailable: false, records: [], behaviours: { 'lame.example': 'timeout' } },
  ]);
  resolver = await startTestDnsServer({
    records: [
      ...ns('example', 'a.nic.example'),
      a('a.nic.example', '127.0.0.2'),
      ...ns('healthy.example', 'ns1.healthy.example', 'ns2.healthy.example'),
      a('ns1.healthy.example', '127.0.0.3'),
      a('ns2.healthy.example', '127.0.0.4'),
      ...ns('mismatch.example', 'ns1.healthy.example', 'ns2.healthy.example'),
      ...ns('serial.example', 'ns1.healthy.example', 'ns-behind.serial.example'),
      a('ns-behind.serial.example', '127.0.0.6'),
      ...ns('refused.example', 'ns1.healthy.example', 'ns.refuser.test'),
      a('ns.refuser.test', '127.0.0.7'),
    ],
    // unbound on a zone none of whose servers answer for it: SERVFAIL, EDE 22 "No Reachable Authority".
    extendedErrors: { 'lame.example': { code: 22, text: 'no reachable authority' } },
    behaviours: { '*.lame.example': 'servfail' },
  });
  service = await startTestService({
    env: {
      DNS_SERVERS: resolver.server,
      DNS_AUTHORITATIVE_PORT: String(direct[0]!.port),
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '1',
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
    },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
  });
  mcp = new Client({ name: 'test', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.publicUrl}/mcp`)));
});
afterAll(async () => {
  await mcp?.close();
  await service?.close();
  await Promise.all([resolver?.close(), ...(direct ?? []).map((s) => s.close())]);
});

const row = publicCheckRows.find((r) => r.name === 'check_nameservers')!;

/** check-nameservers for one domain through REST GET, /graphql and MCP; every door must give the same answer. */
async function throughEveryDoor(domain: string): Promise<any> {
  const get = await service.pub(`${row.path}?${new URLSearchParams({ domains: domain })}`);
  expect(get.status).toBe(200);
  const rest = await get.json();
  const gqlResponse = await service.pub('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: loadDocument(row.document).source, variables: { domains: domain } }),
  });
  const gqlBody = await gqlResponse.json();
  expect(gqlBody.errors).toBeUndefined();
  const gql = rowAnswer(schema, row, gqlBody.data);
  const tool = await mcp.callTool({ name: 'check_nameservers', arguments: { domains: domain } });
  expect(tool.isError).toBeFalsy();
  const viaMcp = JSON.parse((tool.content as { text: string }[])[0]!.text);
  expect(gql).toEqual(rest);
  expect(viaMcp).toEqual(rest);
  return rest;
}

const codes = (answer: any): string[][] => answer.findings.map((f: any) => [f.code, f.severity]).sort();

describe('delegation health answers through REST, GraphQL and MCP', () => {
  it('a healthy delegation: the parent set equals the zone set, every server authoritative, serials agree', async () => {
    const answer = await throughEveryDoor('healthy.example');
    expect(answer.status).toBe('pass');
    expect(answer.results[0].delegation).toEqual({
      parent_zone: 'example',
      parent_nameservers: ['ns1.healthy.example', 'ns2.healthy.example'],
      parent_reason: null,
      child_nameservers: ['ns1.healthy.example', 'ns2.healthy.example'],
      only_at_parent: [],
      only_at_child: [],
      servers: [
        { nameserver: 'ns1.healthy.example', addresses: ['127.0.0.3'], status: 'authoritative', serial: 10, reason: null },
        { nameserver: 'ns2.healthy.example', addresses: ['127.0.0.4'], status: 'authoritative', serial: 10, reason: null },
      ],
      serials_agree: true,
    });
  });

  it('parent and child NS sets that differ', async () => {
    const answer = await throughEveryDoor('mismatch.example');
    const d = answer.results[0].delegation;
    expect(d.only_at_parent).toEqual(['ns-old.mismatch.example']);
    expect(d.only_at_child).toEqual(['ns2.healthy.example']);
    expect(codes(answer)).toEqual([['ns_parent_child_mismatch', 'warning']]);
    expect(answer.findings[0].message).toMatch(/only the parent \(example\) lists ns-old\.mismatch\.example/);
    expect(answer.status).toBe('warn');
  });

  it('SOA serials that differ between the servers', async () => {
    const answer = await throughEveryDoor('serial.example');
    const d = answer.results[0].delegation;
    expect(d.servers.map((s: any) => [s.nameserver, s.status, s.serial])).toEqual([
      ['ns-behind.serial.example', 'authoritative', 9],
      ['ns1.healthy.example', 'authoritative', 10],
    ]);
    expect(d.serials_agree).toBe(false);
    expect(codes(answer)).toEqual([['soa_serial_mismatch', 'warning']]);
    expect(answer.findings[0].message).toMatch(/ns-behind\.serial\.example 9, ns1\.healthy\.example 10/);
  });

  it('a server that answers REFUSED is lame, named, beside one that works', async () => {
    const answer = await throughEveryDoor('refused.example');
    const refuser = answer.results[0].delegation.servers.find((s: any) => s.nameserver === 'ns.refuser.test');
    expect(refuser).toMatchObject({ status: 'lame', addresses: ['127.0.0.7'], serial: null });
    expect(refuser.reason).toMatch(/it refused the question: it does not serve refused\.example/);
    expect(codes(answer)).toEqual([['lame_nameserver', 'warning']]);
    expect(answer.findings[0].message).toMatch(/^ns\.refuser\.test is lame for refused\.example/);
  });

  it('a zone whose every server is lame: the parent side names each server, no "try again"', async () => {
    const silent = () => direct.filter((d) => d.address === '127.0.0.8' || d.address === '127.0.0.9').map((d) => d.questions.length);
    const before = silent();
    const answer = await throughEveryDoor('lame.example');
    // Three requests (REST, GraphQL, MCP): each silent server was asked in each, and given up on (its
    // own 1 s timeout, not DNS_TIMEOUT_MS; how fast is the bench's business, not a stopwatch's here).
    for (const [i, count] of silent().entries()) expect(count - before[i]!).toBeGreaterThanOrEqual(3);
    expect(answer.status).toBe('fail');
    const result = answer.results[0];
    expect(result.outcome).toBe('lookup_failed');
    expect(result.zone).toBe('lame.example');
    expect(result.reason).not.toMatch(/try again/);
    expect(result.reason).toMatch(/^No name server of lame\.example serves it: example delegates lame\.example to ns1\.lame\.example, ns2\.lame\.example/);
    const d = result.delegation;
    expect(d.parent_nameservers).toEqual(['ns1.lame.example', 'ns2.lame.example', 'ns3.lame.example', 'ns4.lame.example']);
    expect(d.child_nameservers).toEqual([]);
    // The servers' addresses come from the parent's glue: the resolver cannot answer inside the zone.
    expect(d.servers.map((s: any) => [s.nameserver, s.addresses, s.status])).toEqual([
      ['ns1.lame.example', ['127.0.0.7'], 'lame'],
      ['ns2.lame.example', ['127.0.0.5'], 'lame'],
      ['ns3.lame.example', ['127.0.0.8'], 'unreachable'],
      ['ns4.lame.example', ['127.0.0.9'], 'unreachable'],
    ]);
    expect(d.servers[0].reason).toMatch(/refused/);
    expect(d.servers[1].reason).toMatch(/without the AA flag/);
    expect(codes(answer)).toEqual([
      ['lame_nameserver', 'error'],
      ['lame_nameserver', 'error'],
      ['lookup_failed', 'error'],
      ['nameserver_unreachable', 'warning'],
      ['nameserver_unreachable', 'warning'],
    ]);
  });

  it('a bulk call asks no server directly', async () => {
    const before = direct.reduce((n, s) => n + s.questions.length, 0);
    const get = await service.pub(`${row.path}?${new URLSearchParams({ domains: 'healthy.example,serial.example' })}`);
    const answer = await get.json();
    expect(answer.results.every((r: any) => !('delegation' in r))).toBe(true);
    expect(direct.reduce((n, s) => n + s.questions.length, 0)).toBe(before);
  });
});
