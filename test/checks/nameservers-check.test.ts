import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMESERVERS_LIMIT, parseBulkInput } from '../../resolvers/checks/bulk-input.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkNameservers } from '../../resolvers/checks/nameservers/check-nameservers.js';
import { DNS_PROVIDERS } from '../../resolvers/checks/nameservers/dns-provider-table.js';
import { hostHasSuffix, matchSuffixRule } from '../../resolvers/checks/nameservers/match-host-suffix.js';
import { createDnsLookup, DIRECT_TIMEOUT_MS } from '../../clients/dns/create-dns-lookup.js';
import type { DnsLookup } from '../../clients/dns/dns-types.js';
import { createQuestionBudget } from '../../clients/dns/question-budget.js';
import { startTestDnsServer, startTestDnsServersOnOnePort, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';

const ns = (name: string, ...servers: string[]): ZoneRecord[] => servers.map((data) => ({ name, type: 'NS', data }));

const records: ZoneRecord[] = [
  ...ns('cf.example', 'lara.ns.cloudflare.com', 'greg.ns.cloudflare.com'),
  ...ns('aws.example', 'ns-1.awsdns-01.org', 'ns-2.awsdns-02.co.uk', 'ns-3.awsdns-03.com', 'ns-4.awsdns-04.net'),
  ...ns('mixed.example', 'ns1.domaincontrol.com', 'dns1.registrar-servers.com'),
  ...ns('own.example', 'ns1.own.example', 'ns2.own.example'),
  ...ns('fake.example', 'ns1.notcloudflare.com'),
  { name: 'www.cf.example', type: 'A', data: '192.0.2.1' },
];

let server: TestDnsServer;
beforeAll(async () => {
  server = await startTestDnsServer({
    records,
    behaviours: { 'slow.example': 'timeout' },
    secure: ['cf.example'],
    extendedErrors: { 'expired.example': { code: 7 } },
  });
});
afterAll(() => server.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(server);

describe('provider suffix table', () => {
  it.each([
    ['ns-1234.awsdns-12.co.uk', 'route53'],
    ['ns-cloud-a1.googledomains.com', 'google_cloud_dns'],
    ['ns1-05.azure-dns.com', 'azure_dns'],
    ['ns1.digitalocean.com', 'digitalocean'],
    ['curitiba.ns.porkbun.com', 'porkbun'],
    ['hydrogen.ns.hetzner.com', 'hetzner'],
    ['dns10.ovh.net', 'ovh'],
    ['ns-12-a.gandi.net', 'gandi'],
    ['dns1.p01.nsone.net', 'ns1'],
    ['ns1.vercel-dns.com', 'vercel'],
    ['ns1.ui-dns.de', 'ionos'],
    ['ns1.dns-parking.com', 'hostinger'],
    ['ns0.wixdns.net', 'wix'],
  ])('%s is %s', (host, id) => {
    expect(matchSuffixRule(host, DNS_PROVIDERS)?.id).toBe(id);
  });

  it.each(['ns1.notcloudflare.com', 'cloudflare.com.evil.example', 'ns.awsdns-01.com.evil.example', 'ns1.myovh.net'])(
    '%s matches no provider (suffix, never substring)',
    (host) => {
      expect(matchSuffixRule(host, DNS_PROVIDERS)).toBeNull();
    },
  );

  it('matches whole labels only', () => {
    expect(hostHasSuffix('a.b.example', 'b.example')).toBe(true);
    expect(hostHasSuffix('ab.example', 'b.example')).toBe(false);
  });
});

describe('check-nameservers', () => {
  it('gives NS records and provider per domain, groups mixed providers and leaves unknown servers unknown', async () => {
    const answer = await checkNameservers({ domains: 'cf.example,aws.example,mixed.example,own.example,fake.example' }, ctx());
    const by = (d: string) => answer.results.find((r) => r.domain === d);
    expect(by('cf.example')).toMatchObject({ outcome: 'ok', provider: 'Cloudflare', nameservers: ['greg.ns.cloudflare.com', 'lara.ns.cloudflare.com'] });
    expect(by('aws.example')).toMatchObject({ provider: 'Amazon Route 53' });
    expect(by('mixed.example')?.provider).toBe('Mixed');
    expect(
      by('mixed.example')
        ?.providers.map((p) => p.id)
        .sort(),
    ).toEqual(['godaddy', 'namecheap']);
    expect(by('own.example')).toMatchObject({ provider: null, providers: [{ id: 'unknown' }] });
    expect(by('fake.example')?.provider).toBeNull();
    expect(answer.providerCounts).toEqual({ Cloudflare: 1, 'Amazon Route 53': 1, Mixed: 1 });
    expect(answer.status).toBe('pass');
  });

  it("a host name shows its zone's name servers; NXDOMAIN and timeouts are told apart", async () => {
    const answer = await checkNameservers({ domains: ['www.cf.example', 'absent.example', 'slow.example'] }, ctx());
    expect(answer.results.map((r) => [r.domain, r.outcome, r.zone])).toEqual([
      ['www.cf.example', 'ok', 'cf.example'],
      ['absent.example', 'not_found', null],
      ['slow.example', 'lookup_failed', null],
    ]);
    expect(answer.results[2]?.reason).toMatch(/timeout.*not a missing record/);
    expect(answer.status).toBe('warn');
  });

  it("shows the DNSSEC status the resolver reported, and a bogus zone's failure in plain words", async () => {
    const answer = await checkNameservers({ domains: 'cf.example,aws.example,expired.example' }, ctx());
    expect(answer.results.map((r) => [r.domain, r.dnssec])).toEqual([
      ['cf.example', 'secure'],
      ['aws.example', 'insecure'],
      ['expired.example', 'bogus'],
    ]);
    expect(answer.results[2]).toMatchObject({ outcome: 'lookup_failed' });
    expect(answer.results[2]?.reason).toMatch(/the DNSSEC signature has expired \(Extended DNS Error 7\)/);
  });

  it('all lookups failing is status error', async () => {
    await expect(checkNameservers({ domains: 'slow.example' }, ctx())).resolves.toMatchObject({ status: 'error' });
  });
});

describe('bulk input', () => {
  it('takes a comma-separated string or a list, trims, drops empties and keeps duplicates once', () => {
    expect(parseBulkInput(' a.example, b.example,,a.example ', 'domains', 10, 'x')).toEqual(['a.example', 'b.example']);
    expect(parseBulkInput(['a.example', ' b.example', 'a.example,c.example'], 'domains', 10, 'x')).toEqual(['a.example', 'b.example', 'c.example']);
  });

  it('refuses empty input, non-strings and one over the limit with a sentence naming the limit', () => {
    expect(() => parseBulkInput(' , ', 'domains', 10, 'x')).toThrow(/Pass the parameter "domains"/);
    expect(() => parseBulkInput([1, 2], 'domains', 10, 'x')).toThrow(/list of strings/);
    const many = Array.from({ length: NAMESERVERS_LIMIT + 1 }, (_, i) => `d${i}.example`);
    expect(() => parseBulkInput(many, 'domains', NAMESERVERS_LIMIT, 'x')).toThrow(`the limit is ${NAMESERVERS_LIMIT} per call`);
    expect(parseBulkInput([...many.slice(0, NAMESERVERS_LIMIT), 'd0.example'], 'domains', NAMESERVERS_LIMIT, 'x')).toHaveLength(NAMESERVERS_LIMIT);
  });
});

describe('check-nameservers for one domain: delegation health', () => {
  const soa = (zone: string, serial: number): ZoneRecord => ({
    name: zone,
    type: 'SOA',
    data: { mname: `ns1.${zone}`, rname: `hostmaster.${zone}`, serial, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
  });
  const a = (name: string, data: string): ZoneRecord => ({ name, type: 'A', data });
  let resolver: TestDnsServer;
  let direct: TestDnsServer[] = [];

  beforeAll(async () => {
    // The recursive resolver (DNS_SERVERS) knows every public record.
    resolver = await startTestDnsServer({
      records: [
        ...ns('example', 'a.nic.example'),
        a('a.nic.example', '127.0.0.2'),
        ...ns('healthy.example', 'ns1.healthy.example', 'ns2.healthy.example'),
        a('ns1.healthy.example', '127.0.0.3'),
        a('ns2.healthy.example', '127.0.0.4'),
        ...ns('broken.example', 'ns1.healthy.example', 'ns2.broken.example', 'ns3.broken.example', 'ns.gone.example'),
        a('ns2.broken.example', '127.0.0.6'),
        a('ns3.broken.example', '127.0.0.5'),
        { name: 'gone.example', type: 'TXT', data: ['no hosts here'] },
      ],
    });
    // Name servers asked directly, all on one port (DNS_AUTHORITATIVE_PORT in tests).
    direct = await startTestDnsServersOnOnePort([
      {
        // The parent (example): referrals with glue, AA clear. It still lists a retired server for broken.example.
        address: '127.0.0.2',
        zones: ['example'],
        delegations: ['healthy.example', 'broken.example'],
        recursionAvailable: false,
        records: [
          ...ns('healthy.example', 'ns1.healthy.example', 'ns2.healthy.example'),
          a('ns1.healthy.example', '127.0.0.3'),
          a('ns2.healthy.example', '127.0.0.4'),
          ...ns('broken.example', 'ns1.healthy.example', 'ns2.broken.example', 'ns-old.broken.example'),
        ],
      },
      {
        address: '127.0.0.3',
        zones: ['healthy.example', 'broken.example'],
        recursionAvailable: false,
        records: [soa('healthy.example', 10), soa('broken.example', 7)],
      },
      { address: '127.0.0.4', zones: ['healthy.example'], recursionAvailable: false, records: [soa('healthy.example', 10)] },
      // Lame: it has the zone's data (a cache) but does not serve it, so AA is clear.
      { address: '127.0.0.5', authoritative: false, records: [soa('broken.example', 7)] },
      // A secondary behind on zone transfers.
      { address: '127.0.0.6', zones: ['broken.example'], recursionAvailable: false, records: [soa('broken.example', 6)] },
    ]);
  });
  afterAll(() => Promise.all([resolver.close(), ...direct.map((s) => s.close())]));

  const delegationCtx = (): CheckContext => ({
    ...dnsOnlyCheckContext(resolver),
    dns: createDnsLookup({ servers: [resolver.server], timeoutMs: 300, tries: 1, concurrency: 16, authoritativePort: direct[0]!.port }),
  });

  it("a healthy delegation: the parent's set equals the zone's, every server is authoritative, serials agree", async () => {
    const answer = await checkNameservers({ domains: 'healthy.example' }, delegationCtx());
    expect(answer.results[0]?.delegation).toEqual({
      parentZone: 'example',
      parentNameservers: ['ns1.healthy.example', 'ns2.healthy.example'],
      parentReason: null,
      childNameservers: ['ns1.healthy.example', 'ns2.healthy.example'],
      onlyAtParent: [],
      onlyAtChild: [],
      servers: [
        { nameserver: 'ns1.healthy.example', addresses: ['127.0.0.3'], status: 'authoritative', serial: 10, reason: null },
        { nameserver: 'ns2.healthy.example', addresses: ['127.0.0.4'], status: 'authoritative', serial: 10, reason: null },
      ],
      serialsAgree: true,
    });
    expect(answer.status).toBe('pass');
    // Direct questions carry RD clear.
    expect(direct[1]!.questions.every((q) => !q.recursionDesired)).toBe(true);
  });

  it('a broken delegation: a parent/child mismatch, a lame server, a server without an address and serials that differ', async () => {
    const answer = await checkNameservers({ domains: 'broken.example' }, delegationCtx());
    const d = answer.results[0]?.delegation;
    expect(d).toMatchObject({
      parentNameservers: ['ns-old.broken.example', 'ns1.healthy.example', 'ns2.broken.example'],
      onlyAtParent: ['ns-old.broken.example'],
      onlyAtChild: ['ns.gone.example', 'ns3.broken.example'],
      serialsAgree: false,
    });
    expect(d?.servers.map((s) => [s.nameserver, s.status, s.serial])).toEqual([
      ['ns.gone.example', 'no_address', null],
      ['ns1.healthy.example', 'authoritative', 7],
      ['ns2.broken.example', 'authoritative', 6],
      ['ns3.broken.example', 'lame', null],
    ]);
    expect(d?.servers[3]?.reason).toMatch(/without the AA flag: it does not serve broken\.example/);
    expect(answer.findings.map((f) => [f.code, f.severity]).sort()).toEqual([
      ['lame_nameserver', 'warning'],
      ['nameserver_unreachable', 'warning'],
      ['ns_parent_child_mismatch', 'warning'],
      ['soa_serial_mismatch', 'warning'],
    ]);
    expect(answer.status).toBe('warn');
  });

  it('bulk calls stay as they are: no delegation field and no direct question', async () => {
    const asked = direct.reduce((n, s) => n + s.questions.length, 0);
    const answer = await checkNameservers({ domains: 'healthy.example,broken.example' }, delegationCtx());
    expect(answer.results.every((r) => !('delegation' in r))).toBe(true);
    expect(direct.reduce((n, s) => n + s.questions.length, 0)).toBe(asked);
  });

  it("direct questions count against the request's budget", async () => {
    const budget = createQuestionBudget(3);
    const lookup = createDnsLookup({ servers: [resolver.server], timeoutMs: 300, tries: 1, concurrency: 4, authoritativePort: direct[0]!.port }, { budget });
    await lookup.askServer!('127.0.0.3', 'healthy.example', 'SOA');
    await lookup.askServer!('127.0.0.4', 'healthy.example', 'SOA');
    await lookup.askServer!('127.0.0.4', 'healthy.example', 'SOA'); // the same question: asked once
    expect(budget.used).toBe(2);
    await lookup.lookup('healthy.example', 'NS');
    expect(await lookup.askServer!('127.0.0.6', 'broken.example', 'SOA')).toMatchObject({ ok: false, failure: 'budget' });
  });
});

describe('check-nameservers for a lame delegation: answered from the parent side, servers probed in parallel', () => {
  const a = (name: string, data: string): ZoneRecord => ({ name, type: 'A', data });
  const lameSoa: ZoneRecord = {
    name: 'lame.example',
    type: 'SOA',
    data: { mname: 'ns1.lame.example', rname: 'hostmaster.lame.example', serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
  };
  let resolver: TestDnsServer;
  let direct: TestDnsServer[] = [];

  beforeAll(async () => {
    // The resolver never answers about lame.example (a resolver still timing out on its servers).
    resolver = await startTestDnsServer({
      records: [...ns('example', 'a.nic.example'), a('a.nic.example', '127.0.0.22')],
      behaviours: { 'lame.example': 'timeout', '*.lame.example': 'timeout' },
    });
    direct = await startTestDnsServersOnOnePort([
      {
        // The parent: a referral to three servers, with glue.
        address: '127.0.0.22',
        zones: ['example'],
        delegations: ['lame.example'],
        recursionAvailable: false,
        records: [
          ...ns('lame.example', 'ns1.lame.example', 'ns2.lame.example', 'ns3.lame.example'),
          a('ns1.lame.example', '127.0.0.23'),
          a('ns2.lame.example', '127.0.0.24'),
          a('ns3.lame.example', '127.0.0.25'),
        ],
      },
      // bind9 not serving the zone: REFUSED.
      { address: '127.0.0.23', recursionAvailable: false, records: [], behaviours: { 'lame.example': 'refused' } },
      // A cache holding the zone's SOA: answers without AA.
      { address: '127.0.0.24', authoritative: false, records: [lameSoa] },
      // Silent.
      { address: '127.0.0.25', recursionAvailable: false, records: [], behaviours: { 'lame.example': 'timeout' } },
    ]);
  });
  afterAll(() => Promise.all([resolver?.close(), ...direct.map((s) => s.close())]));

  it('is answered while the resolver is still waiting, counted as delegated, every server probed before any answered, none saying "try again"', async () => {
    // The resolver's own deadline is long (5 s × 2 tries); the direct questions have their own 1 s each.
    const base = createDnsLookup({ servers: [resolver.server], timeoutMs: 5000, tries: 2, concurrency: 16, authoritativePort: direct[0]!.port });
    expect(DIRECT_TIMEOUT_MS).toBeLessThanOrEqual(1000);
    const events: string[] = [];
    let resolverDone = false;
    const dns: DnsLookup = {
      lookup(name, type) {
        const answer = base.lookup(name, type);
        if (name === 'lame.example' && type === 'NS') void answer.then(() => (resolverDone = true));
        return answer;
      },
      async askServer(address, name, type) {
        if (type === 'SOA') events.push(`start ${address}`);
        const reply = await base.askServer!(address, name, type);
        if (type === 'SOA') events.push(`end ${address}`);
        return reply;
      },
      get questionsAsked() {
        return base.questionsAsked;
      },
    };
    const answer = await checkNameservers({ domains: 'lame.example' }, { ...dnsOnlyCheckContext(resolver), dns });
    // Answered before the resolver's NS lookup gave up.
    expect(resolverDone).toBe(false);
    const result = answer.results[0]!;
    expect(result).toMatchObject({ outcome: 'lookup_failed', zone: 'lame.example' });
    expect(result.delegation?.servers.map((s) => [s.nameserver, s.status])).toEqual([
      ['ns1.lame.example', 'lame'],
      ['ns2.lame.example', 'lame'],
      ['ns3.lame.example', 'unreachable'],
    ]);
    expect(result.reason).toMatch(/^No name server of lame\.example serves it/);
    expect(JSON.stringify(answer)).not.toMatch(/try again/i);
    expect(answer.summary).toBe('1 of 1 domain(s) have name servers (1 delegated to servers that do not serve it).');
    // In parallel: the three servers were all asked before the first reply came back.
    const starts = events.filter((e) => e.startsWith('start')).length;
    expect(starts).toBe(3);
    expect(events.slice(0, 3).every((e) => e.startsWith('start'))).toBe(true);
  });
});
