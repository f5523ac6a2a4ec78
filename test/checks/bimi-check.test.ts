import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBimi } from '../../resolvers/checks/bimi/check-bimi.js';
import { createHttpsFetcher } from '../../clients/http/create-https-fetcher.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { BimiContext } from '../../resolvers/checks/bimi/check-bimi.js';
import { loadMarkRoots } from '../../resolvers/checks/bimi/mark-roots.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { join } from 'node:path';
import { createTestCa, markCertificateOptions, selfSigned, type TestCa } from '../support/test-ca.js';

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 100 100"><title>Brand Inc</title><circle cx="50" cy="50" r="45" fill="#036"/></svg>';
const BAD_LOGO = '<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 200 100"><circle cx="50" cy="50" r="45"/></svg>';
const ASSETS = 'https://assets.brand.test';

const txt = (name: string, value: string): ZoneRecord => ({ name, type: 'TXT', data: [value] });
const reject = (domain: string): ZoneRecord => txt(`_dmarc.${domain}`, 'v=DMARC1; p=reject; rua=mailto:dmarc@brand.test');
const full = `v=BIMI1; l=${ASSETS}/logo.svg; a=${ASSETS}/vmc.pem`;

const records: ZoneRecord[] = [
  { name: 'assets.brand.test', type: 'A', data: '127.0.0.1' },
  txt('default._bimi.brand.test', full),
  txt('brand2._bimi.brand.test', `v=BIMI1; l=${ASSETS}/logo.svg; a=${ASSETS}/vmc.pem; avp=personal`),
  txt('_dmarc.brand.test', 'v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@brand.test'),
  // mail.brand.test has no records of its own: BIMI and DMARC come from brand.test.
  { name: 'mail.brand.test', type: 'MX', data: { preference: 10, exchange: 'mx.brand.test' } },
  txt('default._bimi.weak.test', `v=BIMI1; l=${ASSETS}/logo.svg`),
  txt('_dmarc.weak.test', 'v=DMARC1; p=none; sp=none; rua=mailto:dmarc@weak.test'),
  txt('default._bimi.declined.test', 'v=BIMI1; l=; a=;'),
  reject('declined.test'),
  reject('none.test'),
  txt('default._bimi.badlogo.test', `v=BIMI1; l=${ASSETS}/bad.svg; a=`),
  reject('badlogo.test'),
  txt('default._bimi.missinglogo.test', `v=BIMI1; l=${ASSETS}/gone.svg`),
  reject('missinglogo.test'),
  txt('default._bimi.othercert.test', full),
  reject('othercert.test'),
  txt('default._bimi.porty.test', `v=BIMI1; l=${ASSETS}/logo.svg; a=https://assets.brand.test:8443/vmc.pem`),
  reject('porty.test'),
  txt('default._bimi.selfmade.test', `v=BIMI1; l=${ASSETS}/logo.svg; a=${ASSETS}/self-signed.pem`),
  reject('selfmade.test'),
  txt('default._bimi.twice.test', full),
  txt('default._bimi.twice.test', `v=BIMI1; l=${ASSETS}/bad.svg`),
  reject('twice.test'),
  reject('servfail.test'),
];

describe('checkBimi', () => {
  let ca: TestCa;
  let dnsServer: TestDnsServer;
  let server: TestHttpsServer;

  beforeAll(async () => {
    ca = createTestCa();
    const site = ca.issue({ hosts: ['assets.brand.test'] });
    const vmc = ca.issue(markCertificateOptions(Buffer.from(LOGO)));
    dnsServer = await startTestDnsServer({ records, behaviours: { 'default._bimi.servfail.test': 'servfail' } });
    server = await startTestHttpsServer({
      certificates: [{ hosts: ['assets.brand.test'], ...site }],
      routes: {
        [`${ASSETS}/logo.svg`]: { body: LOGO, contentType: 'image/svg+xml' },
        [`${ASSETS}/bad.svg`]: { body: BAD_LOGO, contentType: 'image/svg+xml' },
        [`${ASSETS}/vmc.pem`]: { body: vmc.chainPem, contentType: 'application/pem-certificate-chain' },
        [`${ASSETS}/self-signed.pem`]: {
          body: selfSigned(ca.issue(markCertificateOptions(Buffer.from(LOGO), { hosts: ['selfmade.test'] }))),
          contentType: 'application/pem-certificate-chain',
        },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await dnsServer?.close();
    ca?.close();
  });

  // The test CA plays the Mark Verifying Authority, trusted the way an operator would: BIMI_EXTRA_ROOTS_FILE.
  const context = (trustTestRoot = true): BimiContext => {
    const dns = createDnsLookup({ servers: [dnsServer.server], timeoutMs: 1000, tries: 1, concurrency: 8 });
    return {
      dns,
      https: createHttpsFetcher(dns, { allowPrivate: true, httpsPort: server.port, ca: ca.certPem }),
      now: () => new Date(),
      ...(trustTestRoot ? { markRoots: loadMarkRoots(join(ca.dir, 'ca.pem')) } : {}),
    };
  };
  const codes = (answer: { findings: readonly { code: string }[] }) => answer.findings.map((f) => f.code);

  it('passes a record with a valid logo, a matching VMC and DMARC at reject', async () => {
    const answer = await checkBimi({ domain: 'brand.test' }, context());
    expect(answer).toMatchObject({
      status: 'pass',
      domain: 'brand.test',
      selector: 'default',
      recordDomain: 'brand.test',
      record: full,
      valid: true,
      declined: false,
      logoUrl: `${ASSETS}/logo.svg`,
      authorityUrl: `${ASSETS}/vmc.pem`,
      dmarcEnforced: true,
      dmarcDetail: {
        domainRecord: 'v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@brand.test',
        organizationalDomain: 'brand.test',
        policy: 'reject',
        changes: [],
      },
      logo: { fetched: true, sizeBytes: Buffer.byteLength(LOGO), svgTinyPsValid: true, problems: [] },
      certificate: {
        fetched: true,
        expired: false,
        coversDomain: true,
        markType: 'VMC',
        logoEmbedded: true,
        logoMatches: true,
        chainTrusted: true,
        trustAnchor: 'CN=Checks Test CA',
        problems: [],
      },
      findings: [],
    });
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it('falls back to the organisational domain, where the subdomain policy applies', async () => {
    const answer = await checkBimi({ domain: 'mail.brand.test' }, context());
    expect(answer).toMatchObject({
      status: 'pass',
      recordDomain: 'brand.test',
      record: full,
      dmarcEnforced: true,
      dmarcDetail: { domainRecord: null, organizationalRecord: expect.stringContaining('p=reject'), policy: 'quarantine' },
      certificate: { coversDomain: true },
    });
    expect(codes(answer)).toEqual(['bimi_organizational_fallback']);
  });

  it('reads a record under another selector', async () => {
    const answer = await checkBimi({ domain: 'brand.test', selector: 'Brand2' }, context());
    expect(answer).toMatchObject({ selector: 'brand2', record: expect.stringContaining('avp=personal'), status: 'pass' });
  });

  it('fails when DMARC is p=none and says what to change, and warns that there is no VMC', async () => {
    const answer = await checkBimi({ domain: 'weak.test' }, context());
    expect(answer.status).toBe('fail');
    expect(answer.dmarcEnforced).toBe(false);
    expect(answer.dmarcDetail.changes.join(' ')).toMatch(/p=none; set p=quarantine or p=reject/);
    expect(answer.dmarcDetail.changes.join(' ')).toMatch(/sp=none/);
    expect(codes(answer)).toEqual(expect.arrayContaining(['bimi_dmarc_not_enforced', 'bimi_no_certificate']));
    expect(answer.certificate).toBeNull();
    expect(answer.logo?.svgTinyPsValid).toBe(true);
  });

  it('reports an explicit declination', async () => {
    const answer = await checkBimi({ domain: 'declined.test' }, context());
    expect(answer).toMatchObject({ status: 'warn', declined: true, valid: true, logo: null, certificate: null });
    expect(codes(answer)).toEqual(['bimi_declined']);
  });

  it('fails with no record at the domain (an apex, so there is no fallback)', async () => {
    const answer = await checkBimi({ domain: 'none.test' }, context());
    expect(answer).toMatchObject({ status: 'fail', record: null, recordDomain: null, valid: false });
    expect(codes(answer)).toEqual(['bimi_no_record']);
    expect(dnsServer.questions.filter((q) => q.name.includes('_bimi.none.test'))).toHaveLength(1);
  });

  it('fails on a logo that breaks SVG Tiny PS and lists every fault', async () => {
    const answer = await checkBimi({ domain: 'badlogo.test' }, context());
    expect(answer.logo).toMatchObject({ fetched: true, svgTinyPsValid: false });
    expect(answer.logo?.problems.join('\n')).toMatch(/no <title>/);
    expect(answer.logo?.problems.join('\n')).toMatch(/must be square/);
    expect(codes(answer).filter((c) => c === 'bimi_logo_invalid')).toHaveLength(2);
  });

  it('fails on a logo URL that answers 404', async () => {
    const answer = await checkBimi({ domain: 'missinglogo.test' }, context());
    expect(answer.logo).toMatchObject({ fetched: false, svgTinyPsValid: null });
    expect(codes(answer)).toContain('bimi_logo_unreachable');
  });

  it('fails the same VMC when its root is not a trusted Mark Verifying Authority (the bundled roots only)', async () => {
    const answer = await checkBimi({ domain: 'brand.test' }, context(false));
    expect(answer).toMatchObject({ status: 'fail', certificate: { chainTrusted: false, trustAnchor: null, markType: 'VMC', logoMatches: true } });
    expect(answer.findings).toEqual([
      {
        severity: 'error',
        code: 'bimi_certificate_invalid',
        message:
          'The mark certificate is not acceptable: the chain ends at the self-signed "Checks Test CA", which is not a Mark Verifying Authority root; get the certificate from an authority BIMI receivers trust.',
      },
    ]);
    expect(answer.summary).toMatch(/is not ready: The mark certificate is not acceptable: the chain ends at the self-signed/);
  });

  it('does not fetch an evidence document from a port other than 443, and says so', async () => {
    server.requests.length = 0;
    const answer = await checkBimi({ domain: 'porty.test' }, context());
    expect(answer.findings.find((f) => f.code === 'bimi_certificate_unreachable')?.message).toBe(
      'The evidence document at https://assets.brand.test:8443/vmc.pem could not be fetched: https://assets.brand.test:8443/vmc.pem names port 8443; only the standard HTTPS port 443 is fetched, so publish the URL without a port.',
    );
    expect(server.requests.map((r) => r.path)).toEqual(['/logo.svg']);
  });

  it('fails a self-signed mark certificate whatever roots are trusted', async () => {
    const answer = await checkBimi({ domain: 'selfmade.test' }, context());
    expect(answer).toMatchObject({ status: 'fail', certificate: { chainTrusted: false, coversDomain: true } });
    expect(answer.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/the mark certificate is self-signed; a VMC or CMC must be issued by a Mark Verifying Authority/),
    ]);
  });

  it('fails when the mark certificate does not name the domain', async () => {
    const answer = await checkBimi({ domain: 'othercert.test' }, context());
    expect(answer.certificate).toMatchObject({ coversDomain: false, markType: 'VMC' });
    expect(answer.findings.find((f) => f.code === 'bimi_certificate_invalid')?.message).toMatch(/do not include othercert\.test/);
  });

  it('fails with two BIMI records at one name', async () => {
    const answer = await checkBimi({ domain: 'twice.test' }, context());
    expect(answer).toMatchObject({ status: 'fail', valid: false, record: null });
    expect(codes(answer)).toContain('bimi_multiple_records');
  });

  it('answers status error, not "no record", when the lookup fails', async () => {
    const answer = await checkBimi({ domain: 'servfail.test' }, context());
    expect(answer.status).toBe('error');
    expect(codes(answer)).toEqual(['bimi_lookup_failed']);
    expect(answer.summary).toMatch(/failed/);
  });

  it('refuses a selector that is not DNS labels with a 400', async () => {
    const error = await checkBimi({ domain: 'brand.test', selector: 'bad selector!' }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_selector');
  });
});
