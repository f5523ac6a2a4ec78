import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMtaSts } from '../../resolvers/checks/mta-sts/check-mta-sts.js';
import { createHttpsFetcher } from '../../clients/http/create-https-fetcher.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestHttpsServer, type TestHttpsServer, type TestRoute } from '../support/https-server.js';
import { createTestCa, type TestCa } from '../support/test-ca.js';

const ENFORCE = 'version: STSv1\r\nmode: enforce\r\nmx: mx1.good.test\r\nmx: *.mail.good.test\r\nmax_age: 604800\r\n';

/** One fixture domain: its DNS records and what https://mta-sts.<domain>/.well-known/mta-sts.txt answers. */
interface Fixture {
  records: ZoneRecord[];
  policy?: TestRoute;
}

const txt = (name: string, ...values: string[]): ZoneRecord[] => values.map((v) => ({ name, type: 'TXT', data: [v] }));
const mx = (name: string, ...hosts: string[]): ZoneRecord[] => hosts.map((exchange, i) => ({ name, type: 'MX', data: { preference: (i + 1) * 10, exchange } }));
const policyHost = (domain: string): ZoneRecord => ({ name: `mta-sts.${domain}`, type: 'A', data: '127.0.0.1' });
const plain = (body: string): TestRoute => ({ body, contentType: 'text/plain; charset=utf-8' });
const standard = (domain: string, policy: TestRoute, record = 'v=STSv1; id=20240101T000000'): Fixture => ({
  records: [
    ...txt(`_mta-sts.${domain}`, record),
    ...txt(`_smtp._tls.${domain}`, `v=TLSRPTv1; rua=mailto:tls@${domain}`),
    ...mx(domain, 'mx1.good.test', 'a.mail.good.test'),
    policyHost(domain),
  ],
  policy,
});

const fixtures: Record<string, Fixture> = {
  'good.test': standard('good.test', plain(ENFORCE)),
  'testing.test': {
    records: [...txt('_mta-sts.testing.test', 'v=STSv1; id=1'), ...mx('testing.test', 'mx1.good.test'), policyHost('testing.test')],
    policy: plain('version: STSv1\nmode: testing\nmx: mx1.good.test\nmax_age: 3600\n'),
  },
  'uncovered.test': {
    records: [
      ...txt('_mta-sts.uncovered.test', 'v=STSv1; id=1'),
      ...txt('_smtp._tls.uncovered.test', 'v=TLSRPTv1; rua=mailto:a@uncovered.test'),
      ...mx('uncovered.test', 'mx1.good.test', 'deep.a.mail.good.test', 'other.example.test'),
      policyHost('uncovered.test'),
    ],
    policy: plain(ENFORCE),
  },
  'norecord.test': { records: [...mx('norecord.test', 'mx1.good.test')] },
  'several.test': {
    records: [
      ...txt('_mta-sts.several.test', 'v=STSv1; id=1', 'v=STSv1; id=2', 'v=spf1 -all'),
      ...mx('several.test', 'mx1.good.test'),
      policyHost('several.test'),
    ],
    policy: plain(ENFORCE),
  },
  // An id with dashes.
  'badid.test': standard('badid.test', plain(ENFORCE), 'v=STSv1; id=2024-01-01'),
  'redirect.test': standard('redirect.test', { redirect: 'https://mta-sts.good.test/.well-known/mta-sts.txt' }),
  'missing.test': standard('missing.test', { status: 404, body: 'no' }),
  'badcert.test': standard('badcert.test', plain(ENFORCE)),
  'huge.test': standard('huge.test', plain(`${ENFORCE}${'x: y\n'.repeat(14000)}`)),
  'html.test': standard('html.test', { body: ENFORCE, contentType: 'text/html' }),
  'invalid.test': standard('invalid.test', plain('version: STSv1\nmode: enforce\nmx: mx1.good.test\n')),
  'nullmx.test': {
    records: [
      ...txt('_mta-sts.nullmx.test', 'v=STSv1; id=1'),
      ...txt('_smtp._tls.nullmx.test', 'v=TLSRPTv1; rua=mailto:a@nullmx.test'),
      { name: 'nullmx.test', type: 'MX', data: { preference: 0, exchange: '.' } },
      policyHost('nullmx.test'),
    ],
    policy: plain('version: STSv1\nmode: none\nmax_age: 86400\n'),
  },
  'servfail.test': { records: [...mx('servfail.test', 'mx1.good.test')] },
  // The policy host's only address is the IPv4-compatible form of 127.0.0.1.
  'compatible.test': {
    records: [
      ...txt('_mta-sts.compatible.test', 'v=STSv1; id=1'),
      ...mx('compatible.test', 'mx1.good.test'),
      { name: 'mta-sts.compatible.test', type: 'AAAA', data: '::7f00:1' },
    ],
  },
};

describe('checkMtaSts', () => {
  let ca: TestCa;
  let dnsServer: TestDnsServer;
  let server: TestHttpsServer;

  beforeAll(async () => {
    ca = createTestCa();
    const names = Object.keys(fixtures)
      .filter((d) => d !== 'badcert.test')
      .map((d) => `mta-sts.${d}`);
    const leaf = ca.issue({ hosts: names });
    const wrong = ca.issue({ hosts: ['www.badcert.test'] });
    dnsServer = await startTestDnsServer({
      records: Object.values(fixtures).flatMap((f) => f.records),
      behaviours: { '_mta-sts.servfail.test': 'servfail' },
    });
    server = await startTestHttpsServer({
      certificates: [
        { hosts: names, ...leaf },
        { hosts: ['mta-sts.badcert.test'], ...wrong },
      ],
      routes: Object.fromEntries(
        Object.entries(fixtures)
          .filter(([, f]) => f.policy)
          .map(([d, f]) => [`https://mta-sts.${d}/.well-known/mta-sts.txt`, f.policy!]),
      ),
    });
  });
  afterAll(async () => {
    await server?.close();
    await dnsServer?.close();
    ca?.close();
  });

  /** One context per check, as per request in the service. */
  const context = (allowPrivate = true): CheckContext => {
    const dns = createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 });
    return { dns, https: createHttpsFetcher(dns, { allowPrivate, httpsPort: server.port, ca: ca.certPem }), now: () => new Date() };
  };
  const codes = (answer: { findings: readonly { code: string }[] }) => answer.findings.map((f) => f.code);

  it('passes an enforced policy that covers every MX host, with TLS-RPT', async () => {
    const answer = await checkMtaSts({ domain: 'Good.Test.' }, context());
    expect(answer).toMatchObject({
      status: 'pass',
      domain: 'good.test',
      record: 'v=STSv1; id=20240101T000000',
      recordId: '20240101T000000',
      policyUrl: 'https://mta-sts.good.test/.well-known/mta-sts.txt',
      policy: { version: 'STSv1', mode: 'enforce', mx: ['mx1.good.test', '*.mail.good.test'], maxAge: 604800 },
      policyError: null,
      mxHosts: [
        { host: 'mx1.good.test', matchesPolicy: true },
        { host: 'a.mail.good.test', matchesPolicy: true },
      ],
      tlsRpt: { record: 'v=TLSRPTv1; rua=mailto:tls@good.test', rua: ['mailto:tls@good.test'], valid: true },
      findings: [],
    });
    expect(answer.summary).toMatch(/enforce mode, covering 2 MX hosts/);
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it('warns about testing mode, a max_age under a day and a missing TLS-RPT record', async () => {
    const answer = await checkMtaSts({ domain: 'testing.test' }, context());
    expect(answer.status).toBe('warn');
    expect(codes(answer).sort()).toEqual(['mta_sts_max_age_short', 'mta_sts_mode_testing', 'mta_sts_no_tls_rpt']);
    expect(answer.tlsRpt).toBeNull();
  });

  it('fails when an MX host is not covered, and the wildcard covers one label only', async () => {
    const answer = await checkMtaSts({ domain: 'uncovered.test' }, context());
    expect(answer.status).toBe('fail');
    expect(answer.mxHosts).toEqual([
      { host: 'mx1.good.test', matchesPolicy: true },
      { host: 'deep.a.mail.good.test', matchesPolicy: false },
      { host: 'other.example.test', matchesPolicy: false },
    ]);
    expect(codes(answer)).toEqual(['mta_sts_mx_not_covered', 'mta_sts_mx_not_covered']);
  });

  it('fails with no record, without complaining about the policy nobody would fetch', async () => {
    const answer = await checkMtaSts({ domain: 'norecord.test' }, context());
    expect(answer).toMatchObject({ status: 'fail', record: null, recordId: null, policy: null });
    expect(codes(answer)).toEqual(['mta_sts_no_record', 'mta_sts_no_tls_rpt']);
  });

  it('fails with several v=STSv1 records and ignores other TXT records', async () => {
    const answer = await checkMtaSts({ domain: 'several.test' }, context());
    expect(answer.record).toBeNull();
    expect(answer.findings.find((f) => f.code === 'mta_sts_multiple_records')?.message).toMatch(/has 2 "v=STSv1" records/);
  });

  it('fails on an id that is not letters and digits', async () => {
    const answer = await checkMtaSts({ domain: 'badid.test' }, context());
    expect(answer).toMatchObject({ status: 'fail', record: 'v=STSv1; id=2024-01-01', recordId: null });
    expect(codes(answer)).toContain('mta_sts_invalid_record');
  });

  it('does not follow a redirect of the policy URL', async () => {
    server.requests.length = 0;
    const answer = await checkMtaSts({ domain: 'redirect.test' }, context());
    expect(answer.policy).toBeNull();
    expect(codes(answer)).toContain('mta_sts_policy_redirect');
    expect(answer.policyError).toContain('https://mta-sts.good.test/.well-known/mta-sts.txt');
    expect(server.requests.map((r) => r.host)).toEqual(['mta-sts.redirect.test']);
  });

  it('fails on a policy answered with 404', async () => {
    const answer = await checkMtaSts({ domain: 'missing.test' }, context());
    expect(codes(answer)).toContain('mta_sts_policy_http_status');
    expect(answer.policyError).toMatch(/HTTP 404/);
  });

  it('fails when the policy host has a certificate for another name', async () => {
    const answer = await checkMtaSts({ domain: 'badcert.test' }, context());
    expect(codes(answer)).toContain('mta_sts_policy_certificate_invalid');
    expect(answer.policy).toBeNull();
  });

  it('fails on a policy over 64 KiB', async () => {
    const answer = await checkMtaSts({ domain: 'huge.test' }, context());
    expect(codes(answer)).toContain('mta_sts_policy_too_large');
  });

  it('fails on a policy served as text/html but still reads it', async () => {
    const answer = await checkMtaSts({ domain: 'html.test' }, context());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toEqual(['mta_sts_policy_media_type']);
    expect(answer.policy?.mode).toBe('enforce');
  });

  it('reports an invalid policy with a policy_error', async () => {
    const answer = await checkMtaSts({ domain: 'invalid.test' }, context());
    expect(answer.policy).toBeNull();
    expect(answer.policyError).toMatch(/no max_age line/);
    expect(answer.mxHosts.every((m) => m.matchesPolicy === null)).toBe(true);
  });

  it('treats a null MX as no host and warns about mode none', async () => {
    const answer = await checkMtaSts({ domain: 'nullmx.test' }, context());
    expect(answer.mxHosts).toEqual([]);
    expect(codes(answer)).toEqual(['mta_sts_mode_none', 'mta_sts_no_mx']);
  });

  it('answers status error, not "no record", when the _mta-sts lookup fails', async () => {
    const answer = await checkMtaSts({ domain: 'servfail.test' }, context());
    expect(answer.status).toBe('error');
    expect(codes(answer)).toContain('mta_sts_lookup_failed');
    expect(codes(answer)).not.toContain('mta_sts_no_record');
    expect(answer.summary).toMatch(/failed/);
  });

  it('refuses to fetch a policy whose host points at a private address', async () => {
    const answer = await checkMtaSts({ domain: 'good.test' }, context(false));
    expect(answer.policy).toBeNull();
    expect(answer.policyError).toMatch(/not a public address/);
    expect(codes(answer)).toContain('mta_sts_policy_unreachable');
  });

  it('refuses a policy host whose address is ::7f00:1, the IPv4-compatible loopback', async () => {
    const answer = await checkMtaSts({ domain: 'compatible.test' }, context(false));
    expect(answer.policy).toBeNull();
    expect(answer.policyError).toContain(
      'mta-sts.compatible.test resolves to ::7f00:1, which is not a public address (::7f00:1 is the deprecated IPv4-compatible form of 127.0.0.1',
    );
    expect(codes(answer)).toContain('mta_sts_policy_unreachable');
  });

  it('says one neutral sentence when the policy host refuses the connection', async () => {
    const dns = createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 });
    // Port 1 on 127.0.0.1: nothing listens there, so the connection is refused at once.
    const closed: CheckContext = { dns, https: createHttpsFetcher(dns, { allowPrivate: true, httpsPort: 1, ca: ca.certPem }), now: () => new Date() };
    const answer = await checkMtaSts({ domain: 'good.test' }, closed);
    expect(answer.policyError).toContain('Could not connect to mta-sts.good.test over HTTPS; check that it accepts HTTPS connections on port 443.');
    expect(answer.policyError).not.toMatch(/ECONNREFUSED|ECONN|EHOST/);
  });

  it('refuses an email address with a 400 that says what to pass', async () => {
    const error = await checkMtaSts({ domain: 'someone@good.test' }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)?.status).toBe(400);
  });
});
