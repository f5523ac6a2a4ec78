import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectMarkCertificate } from '../../resolvers/checks/bimi/inspect-mark-certificate.js';
import { createTestCa, logotypeExtensionDer, markCertificateOptions as markCertificateOptionsFor, type MarkCertificateOverrides, type TestCa } from '../support/test-ca.js';

const LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 10 10"><title>Brand</title><rect width="10" height="10" fill="#036"/></svg>');
const markCertificateOptions = (overrides: MarkCertificateOverrides = {}) => markCertificateOptionsFor(LOGO, overrides);

describe('inspecting a mark certificate', () => {
  let ca: TestCa;
  let otherCa: TestCa;
  const now = new Date();
  const inspect = (pem: string, logo: Buffer | null = LOGO, domains = ['brand.test']) => inspectMarkCertificate(Buffer.from(pem), { domains, now, logo });

  beforeAll(() => {
    ca = createTestCa('Test Mark CA');
    otherCa = createTestCa('Unrelated CA');
  });
  afterAll(() => {
    ca?.close();
    otherCa?.close();
  });

  it('reads a VMC: names, dates, issuer, mark type and the embedded logo, which matches', () => {
    const issued = ca.issue(markCertificateOptions());
    const report = inspect(issued.chainPem);
    expect(report).toMatchObject({
      fetched: true,
      issuer: 'CN=Test Mark CA',
      expired: false,
      covers_domain: true,
      names: ['brand.test'],
      mark_type: 'VMC',
      logo_embedded: true,
      logo_matches: true,
      problems: [],
    });
    expect(report.subject).toContain('CN=Brand Inc');
    expect(Date.parse(report.valid_to!)).toBeGreaterThan(now.getTime());
  });

  it('tells a CMC by its Prior Use Mark type', () => {
    expect(inspect(ca.issue(markCertificateOptions({ markType: 'Prior Use Mark' })).certPem).mark_type).toBe('CMC');
  });

  it('takes a certificate with a trademark registration and no markType for a VMC', () => {
    const options = markCertificateOptions({ markType: null });
    const issued = ca.issue({ ...options, subject: [...options.subject!, ['1.3.6.1.4.1.53087.1.4', 'UPTO-12345']] });
    expect(inspect(issued.certPem).mark_type).toBe('VMC');
  });

  it('reports an expired certificate', () => {
    const issued = ca.issue(markCertificateOptions({ notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') }));
    const report = inspect(issued.certPem);
    expect(report.expired).toBe(true);
    expect(report.problems.join(' ')).toMatch(/expired on 2021-01-01/);
  });

  it('reports a certificate whose names do not include the domain', () => {
    const report = inspect(ca.issue(markCertificateOptions({ hosts: ['other-brand.test'] })).certPem);
    expect(report.covers_domain).toBe(false);
    expect(report.problems.join(' ')).toMatch(/other-brand\.test.*do not include brand\.test/);
  });

  it('accepts a name that is the organisational domain where the record was found', () => {
    expect(inspect(ca.issue(markCertificateOptions()).certPem, LOGO, ['mail.brand.test', 'brand.test']).covers_domain).toBe(true);
  });

  it('reports a certificate without the BIMI extended key usage', () => {
    const report = inspect(ca.issue(markCertificateOptions({ extendedKeyUsage: 'serverAuth' })).certPem);
    expect(report.problems.join(' ')).toMatch(/extended key usage lacks 1\.3\.6\.1\.5\.5\.7\.3\.31/);
  });

  it('reports a certificate without a logotype extension', () => {
    const report = inspect(ca.issue(markCertificateOptions({ logotype: null })).certPem);
    expect(report.logo_embedded).toBe(false);
    expect(report.logo_matches).toBeNull();
    expect(report.problems.join(' ')).toMatch(/no logotype extension/);
  });

  it('reports an embedded logo that differs from the published one', () => {
    const report = inspect(ca.issue(markCertificateOptions()).certPem, Buffer.from(LOGO.toString().replace('#036', '#f00')));
    expect(report.logo_matches).toBe(false);
    expect(report.problems.join(' ')).toMatch(/not identical to the SVG at the l= URL/);
  });

  it('reports a logotype hash that does not match the embedded image', () => {
    const forged = logotypeExtensionDer(gzipSync(LOGO), { hashOf: Buffer.from('something else') });
    const report = inspect(ca.issue(markCertificateOptions({ logotype: forged })).certPem);
    expect(report.problems.join(' ')).toMatch(/logotype hash .* does not match/);
  });

  it('reports a logotype that refers to the logo by URL instead of embedding it', () => {
    const byUrl = logotypeExtensionDer(LOGO, { uri: 'https://brand.test/logo.svg' });
    const report = inspect(ca.issue(markCertificateOptions({ logotype: byUrl })).certPem);
    expect(report.logo_embedded).toBe(false);
    expect(report.problems.join(' ')).toMatch(/does not embed the logo as a data: URI/);
  });

  it('accepts an uncompressed embedded logo as well', () => {
    const plain = logotypeExtensionDer(LOGO);
    expect(inspect(ca.issue(markCertificateOptions({ logotype: plain })).certPem)).toMatchObject({ logo_embedded: true, logo_matches: true, problems: [] });
  });

  it('reports a chain whose second certificate did not issue the first', () => {
    const report = inspect(`${ca.issue(markCertificateOptions()).certPem}${otherCa.certPem}`);
    expect(report.problems.join(' ')).toMatch(/certificate 1 in the file is not issued and signed by certificate 2/);
  });

  it('reports a file with no certificate in it', () => {
    const report = inspect('<html>not a certificate</html>');
    expect(report).toMatchObject({ fetched: true, subject: null, mark_type: null });
    expect(report.problems[0]).toMatch(/no PEM certificate/);
  });
});
