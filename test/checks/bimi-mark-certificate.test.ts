import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectMarkCertificate } from '../../resolvers/checks/bimi/inspect-mark-certificate.js';
import { bundledMarkRoots, loadMarkRoots, type MarkRoots } from '../../resolvers/checks/bimi/mark-roots.js';
import {
  createTestCa,
  logotypeExtensionDer,
  markCertificateOptions as markCertificateOptionsFor,
  selfSigned,
  type MarkCertificateOverrides,
  type TestCa,
} from '../support/test-ca.js';

const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 10 10"><title>Brand</title><rect width="10" height="10" fill="#036"/></svg>',
);
const markCertificateOptions = (overrides: MarkCertificateOverrides = {}) => markCertificateOptionsFor(LOGO, overrides);

describe('inspecting a mark certificate', () => {
  let ca: TestCa;
  let otherCa: TestCa;
  const now = new Date();
  // The test CA stands in for a Mark Verifying Authority: its root is the one trusted root here.
  const roots = (): MarkRoots => ({ certificates: [new X509Certificate(ca.certPem)] });
  const inspect = (pem: string, logo: Buffer | null = LOGO, domains = ['brand.test']) =>
    inspectMarkCertificate(Buffer.from(pem), { domains, now: new Date(), logo, roots: roots() });

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
      coversDomain: true,
      names: ['brand.test'],
      markType: 'VMC',
      logoEmbedded: true,
      logoMatches: true,
      chainTrusted: true,
      trustAnchor: 'CN=Test Mark CA',
      problems: [],
    });
    expect(report.subject).toContain('CN=Brand Inc');
    expect(Date.parse(report.validTo!)).toBeGreaterThan(now.getTime());
  });

  it('tells a CMC by its Prior Use Mark type', () => {
    expect(inspect(ca.issue(markCertificateOptions({ markType: 'Prior Use Mark' })).certPem).markType).toBe('CMC');
  });

  it('takes a certificate with a trademark registration and no markType for a VMC', () => {
    const options = markCertificateOptions({ markType: null });
    const issued = ca.issue({ ...options, subject: [...options.subject!, ['1.3.6.1.4.1.53087.1.4', 'UPTO-12345']] });
    expect(inspect(issued.certPem).markType).toBe('VMC');
  });

  it('reports an expired certificate', () => {
    const issued = ca.issue(markCertificateOptions({ notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') }));
    const report = inspect(issued.certPem);
    expect(report.expired).toBe(true);
    expect(report.problems.join(' ')).toMatch(/expired on 2021-01-01/);
  });

  it('reports a certificate whose names do not include the domain', () => {
    const report = inspect(ca.issue(markCertificateOptions({ hosts: ['other-brand.test'] })).certPem);
    expect(report.coversDomain).toBe(false);
    expect(report.problems.join(' ')).toMatch(/other-brand\.test.*do not include brand\.test/);
  });

  it('accepts a name that is the organisational domain where the record was found', () => {
    expect(inspect(ca.issue(markCertificateOptions()).certPem, LOGO, ['mail.brand.test', 'brand.test']).coversDomain).toBe(true);
  });

  it('reports a certificate without the BIMI extended key usage', () => {
    const report = inspect(ca.issue(markCertificateOptions({ extendedKeyUsage: 'serverAuth' })).certPem);
    expect(report.problems.join(' ')).toMatch(/extended key usage lacks 1\.3\.6\.1\.5\.5\.7\.3\.31/);
  });

  it('reports a certificate without a logotype extension', () => {
    const report = inspect(ca.issue(markCertificateOptions({ logotype: null })).certPem);
    expect(report.logoEmbedded).toBe(false);
    expect(report.logoMatches).toBeNull();
    expect(report.problems.join(' ')).toMatch(/no logotype extension/);
  });

  it('reports an embedded logo that differs from the published one', () => {
    const report = inspect(ca.issue(markCertificateOptions()).certPem, Buffer.from(LOGO.toString().replace('#036', '#f00')));
    expect(report.logoMatches).toBe(false);
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
    expect(report.logoEmbedded).toBe(false);
    expect(report.problems.join(' ')).toMatch(/does not embed the logo as a data: URI/);
  });

  it('accepts an uncompressed embedded logo as well', () => {
    const plain = logotypeExtensionDer(LOGO);
    expect(inspect(ca.issue(markCertificateOptions({ logotype: plain })).certPem)).toMatchObject({ logoEmbedded: true, logoMatches: true, problems: [] });
  });

  it('reports a chain whose second certificate did not issue the first', () => {
    const report = inspect(`${ca.issue(markCertificateOptions()).certPem}${otherCa.certPem}`);
    expect(report.problems.join(' ')).toMatch(/certificate 1 in the file is not issued and signed by certificate 2/);
  });

  it('reports a file with no certificate in it', () => {
    const report = inspect('<html>not a certificate</html>');
    expect(report).toMatchObject({ fetched: true, subject: null, markType: null });
    expect(report.problems[0]).toMatch(/no PEM certificate/);
  });
});

describe('chaining a mark certificate to a Mark Verifying Authority root', () => {
  let root: TestCa;
  let issuing: TestCa;
  let lookAlike: TestCa;
  let scratch: string;
  const now = new Date();
  // The clock is read at each inspection: the test authorities are made after this file loads.
  const inspect = (pem: string, roots: MarkRoots) => inspectMarkCertificate(Buffer.from(pem), { domains: ['brand.test'], now: new Date(), logo: LOGO, roots });
  const trustingTestRoot = (): MarkRoots => loadMarkRoots(join(root.dir, 'ca.pem'));

  beforeAll(() => {
    root = createTestCa('Test MVA Root');
    issuing = root.intermediate('Test MVA Issuing CA', { extendedKeyUsage: '1.3.6.1.5.5.7.3.31' });
    // A stranger's root that borrows DigiCert's name: trust goes by key, not by name.
    lookAlike = createTestCa('DigiCert Verified Mark Root CA');
    scratch = mkdtempSync(join(tmpdir(), 'mark-roots-'));
  });
  afterAll(() => {
    for (const ca of [issuing, root, lookAlike]) ca?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const vmcThroughIntermediate = () => issuing.issue(markCertificateOptions());
  const leafAndIntermediate = (issued: { certPem: string }) => `${issued.certPem}${issuing.certPem}`;

  it("passes a VMC issued by an intermediate when the root is in the operator's extra roots file", () => {
    const report = inspect(leafAndIntermediate(vmcThroughIntermediate()), trustingTestRoot());
    expect(report).toMatchObject({ chainTrusted: true, trustAnchor: 'CN=Test MVA Root', problems: [] });
  });

  it('also passes when the file carries the root itself after the intermediate', () => {
    expect(inspect(vmcThroughIntermediate().chainPem, trustingTestRoot())).toMatchObject({ chainTrusted: true, problems: [] });
  });

  it('fails the same certificate against the bundled roots alone: its chain reaches no authority', () => {
    const report = inspect(leafAndIntermediate(vmcThroughIntermediate()), bundledMarkRoots());
    expect(report).toMatchObject({ chainTrusted: false, trustAnchor: null });
    expect(report.problems).toEqual([
      'the chain stops at "Test MVA Issuing CA": its issuer "Test MVA Root" is neither a Mark Verifying Authority root nor in the file; put the issuing authority\'s intermediate certificates after the mark certificate',
    ]);
  });

  it('fails a chain that ends at a root the file brings along but nobody trusts', () => {
    const report = inspect(vmcThroughIntermediate().chainPem, bundledMarkRoots());
    expect(report.chainTrusted).toBe(false);
    expect(report.problems.join(' ')).toMatch(/ends at the self-signed "Test MVA Root", which is not a Mark Verifying Authority root/);
  });

  it("fails a look-alike root named like DigiCert's", () => {
    const report = inspect(lookAlike.issue(markCertificateOptions()).chainPem, bundledMarkRoots());
    expect(report.chainTrusted).toBe(false);
    expect(report.problems.join(' ')).toMatch(/self-signed "DigiCert Verified Mark Root CA", which is not a Mark Verifying Authority root/);
  });

  it('fails a self-signed mark certificate, even with every other field right', () => {
    const report = inspect(selfSigned(vmcThroughIntermediate()), trustingTestRoot());
    expect(report).toMatchObject({ chainTrusted: false, trustAnchor: null, markType: 'VMC', coversDomain: true, logoMatches: true });
    expect(report.problems).toEqual([
      'the mark certificate is self-signed; a VMC or CMC must be issued by a Mark Verifying Authority (such as DigiCert, Entrust, GlobalSign or SSL.com), so it cannot be trusted',
    ]);
  });

  it('fails a chain through an intermediate not allowed to issue mark certificates', () => {
    const tlsOnly = root.intermediate('Test TLS Issuing CA', { extendedKeyUsage: 'serverAuth' });
    try {
      const issued = tlsOnly.issue(markCertificateOptions());
      const report = inspect(`${issued.certPem}${tlsOnly.certPem}`, trustingTestRoot());
      expect(report.chainTrusted).toBe(false);
      expect(report.problems.join(' ')).toMatch(
        /"Test TLS Issuing CA" is not allowed to issue mark certificates: its extended key usage lacks 1\.3\.6\.1\.5\.5\.7\.3\.31/,
      );
    } finally {
      tlsOnly.close();
    }
  });

  it('fails a chain through an issuer that is not a CA certificate', () => {
    const notCa = root.intermediate('Test Leaf Posing As CA', { ca: false, extendedKeyUsage: '1.3.6.1.5.5.7.3.31' });
    try {
      const issued = notCa.issue(markCertificateOptions());
      const report = inspect(`${issued.certPem}${notCa.certPem}`, trustingTestRoot());
      expect(report.chainTrusted).toBe(false);
      expect(report.problems).toEqual(['"Test Leaf Posing As CA" issued a certificate in the chain but is not a CA certificate']);
    } finally {
      notCa.close();
    }
  });

  it("fails a chain through an expired intermediate, judged at the check's clock", () => {
    const old = root.intermediate('Test Old Issuing CA', {
      extendedKeyUsage: '1.3.6.1.5.5.7.3.31',
      notBefore: new Date(now.getTime() - 400 * 86_400_000),
      notAfter: new Date(now.getTime() + 60 * 86_400_000),
    });
    try {
      const pem = `${old.issue(markCertificateOptions()).certPem}${old.certPem}`;
      expect(inspect(pem, trustingTestRoot()).chainTrusted).toBe(true);
      const later = inspectMarkCertificate(Buffer.from(pem), {
        domains: ['brand.test'],
        now: new Date(now.getTime() + 90 * 86_400_000),
        logo: LOGO,
        roots: trustingTestRoot(),
      });
      expect(later.chainTrusted).toBe(false);
      expect(later.problems.join(' ')).toMatch(/the issuing certificate "Test Old Issuing CA" expired on/);
    } finally {
      old.close();
    }
  });

  it('ships the Mark Verifying Authority roots: DigiCert, Entrust, GlobalSign and SSL.com, all self-signed CAs', () => {
    const bundled = bundledMarkRoots().certificates;
    expect(bundled.map((c) => c.subject.split('\n').find((l) => l.startsWith('CN='))).sort()).toEqual([
      'CN=DigiCert Verified Mark Root CA',
      'CN=Entrust Verified Mark Root Certification Authority - VMCR1',
      'CN=GlobalSign Verified Mark Root R42',
      'CN=SSL.com VMC ECC Root CA 2024',
      'CN=SSL.com VMC RSA Root CA 2024',
    ]);
    for (const c of bundled) expect(c.ca && c.checkIssued(c) && c.verify(c.publicKey)).toBe(true);
    expect(bundled.map((c) => c.fingerprint256)).toContain('50:43:86:C9:EE:89:32:FE:CC:95:FA:DE:42:7F:69:C3:E2:53:4B:73:10:48:9E:30:0F:EE:44:8E:33:C4:6B:42');
  });

  it('reads BIMI_EXTRA_ROOTS_FILE at start and stops with a sentence when it is wrong', () => {
    expect(loadMarkRoots(null).certificates).toHaveLength(bundledMarkRoots().certificates.length);
    expect(trustingTestRoot().certificates).toHaveLength(bundledMarkRoots().certificates.length + 1);
    expect(() => loadMarkRoots(join(scratch, 'missing.pem'))).toThrow(
      /BIMI_EXTRA_ROOTS_FILE ".*missing\.pem" cannot be read \(ENOENT\); point it at a PEM file/,
    );
    writeFileSync(join(scratch, 'text.pem'), 'not a certificate');
    expect(() => loadMarkRoots(join(scratch, 'text.pem'))).toThrow(/holds no PEM certificate/);
    writeFileSync(join(scratch, 'leaf.pem'), vmcThroughIntermediate().certPem);
    expect(() => loadMarkRoots(join(scratch, 'leaf.pem'))).toThrow(/Certificate 1 in BIMI_EXTRA_ROOTS_FILE .* is not a CA certificate/);
  });
});
