import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throw-away certificate authority made at test time with the `openssl` command line, so no key or
 * certificate is committed and none expires in the repository. Tests hand `certPem` of the CA to the
 * HTTPS fetcher's `ca` option; production trusts Node's roots plus NODE_EXTRA_CA_CERTS instead.
 */
export interface TestCa {
  readonly dir: string;
  readonly certPem: string;
  issue(options: IssueOptions): IssuedCertificate;
  /**
   * A subordinate CA signed by this one (its own temporary directory; close it too). Its issued
   * certificates' `chainPem` is the leaf, then every CA certificate up to and including the root.
   */
  intermediate(commonName: string, options?: IntermediateOptions): TestCa;
  /** Removes the temporary directory. */
  close(): void;
}

export interface IssueOptions {
  /** DNS names for subjectAltName; the first is also the CN unless `subject` says otherwise. */
  readonly hosts: readonly string[];
  /** Subject attributes in order; keys are short names (CN, O, C) or dotted OIDs. */
  readonly subject?: readonly (readonly [string, string])[];
  /** Validity; defaults to one day ago until 30 days ahead. */
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  /** extendedKeyUsage value (default serverAuth). */
  readonly extendedKeyUsage?: string;
  /** Extra OpenSSL extension lines, e.g. `certificatePolicies = 1.3.6.1.4.1.53087.1.1`. */
  readonly extraExtensions?: readonly string[];
}

export interface IntermediateOptions {
  /** extendedKeyUsage of the CA certificate; none when left out. */
  readonly extendedKeyUsage?: string;
  /** false issues it without basicConstraints CA:TRUE, as a leaf that is misused as an issuer. */
  readonly ca?: boolean;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
}

export interface IssuedCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** Leaf followed by the CA certificate, as a server or a PEM evidence document sends it. */
  readonly chainPem: string;
}

const run = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

function opensslDate(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

function caDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'checks-test-ca-'));
  mkdirSync(join(dir, 'newcerts'));
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  return dir;
}

export function createTestCa(commonName = 'Checks Test CA'): TestCa {
  const dir = caDirectory();
  // EC keys: generating them is instant, unlike RSA.
  run(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '3650',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  return authorityIn(dir, '');
}

/** A CA whose key and certificate are in `dir`; `issuers` is the PEM of the CAs above it, nearest first. */
function authorityIn(dir: string, issuers: string): TestCa {
  writeFileSync(
    join(dir, 'ca.cnf'),
    [
      '[ ca ]',
      'default_ca = testca',
      '[ testca ]',
      `database = ${join(dir, 'index.txt')}`,
      `new_certs_dir = ${join(dir, 'newcerts')}`,
      `serial = ${join(dir, 'serial')}`,
      `certificate = ${join(dir, 'ca.pem')}`,
      `private_key = ${join(dir, 'ca.key')}`,
      'default_md = sha256',
      'policy = policy_any',
      'unique_subject = no',
      'email_in_dn = no',
      '[ policy_any ]',
      'commonName = optional',
      '',
    ].join('\n'),
  );
  const certPem = readFileSync(join(dir, 'ca.pem'), 'utf8');
  let counter = 0;

  return {
    dir,
    certPem,
    issue(options) {
      counter += 1;
      const name = `leaf${counter}`;
      const subject = options.subject ?? [['CN', options.hosts[0] ?? 'test']];
      const oids = subject.filter(([key]) => /^\d+(\.\d+)+$/.test(key));
      const alias = (key: string) => (/^\d+(\.\d+)+$/.test(key) ? `oid${oids.findIndex(([k]) => k === key)}` : key);
      writeFileSync(
        join(dir, `${name}.req.cnf`),
        [
          'oid_section = new_oids',
          '[ new_oids ]',
          ...oids.map(([oid], i) => `oid${i} = ${oid}`),
          '[ req ]',
          'distinguished_name = dn',
          'prompt = no',
          '[ dn ]',
          // The same key twice in one section would be merged by OpenSSL; a numeric prefix keeps them apart.
          ...subject.map(([key, value], i) => `${i}.${alias(key)} = ${value}`),
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, `${name}.ext.cnf`),
        [
          '[ ext ]',
          'basicConstraints = CA:FALSE',
          'keyUsage = critical,digitalSignature',
          `extendedKeyUsage = ${options.extendedKeyUsage ?? 'serverAuth'}`,
          ...(options.hosts.length > 0 ? [`subjectAltName = ${options.hosts.map((h) => `DNS:${h}`).join(',')}`] : []),
          ...(options.extraExtensions ?? []),
          '',
        ].join('\n'),
      );
      run(
        [
          'req',
          '-new',
          '-config',
          `${name}.req.cnf`,
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          `${name}.key`,
          '-out',
          `${name}.csr`,
        ],
        dir,
      );
      const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
      const notAfter = options.notAfter ?? new Date(Date.now() + 30 * 86_400_000);
      run(
        [
          'ca',
          '-batch',
          '-config',
          'ca.cnf',
          '-in',
          `${name}.csr`,
          '-out',
          `${name}.pem`,
          '-notext',
          '-preserveDN',
          '-startdate',
          opensslDate(notBefore),
          '-enddate',
          opensslDate(notAfter),
          '-extfile',
          `${name}.ext.cnf`,
          '-extensions',
          'ext',
        ],
        dir,
      );
      const leafPem = readFileSync(join(dir, `${name}.pem`), 'utf8');
      return { certPem: leafPem, keyPem: readFileSync(join(dir, `${name}.key`), 'utf8'), chainPem: `${leafPem}${certPem}${issuers}` };
    },
    intermediate(subordinateName, options = {}) {
      counter += 1;
      const name = `sub${counter}`;
      const subDir = caDirectory();
      writeFileSync(
        join(dir, `${name}.ext.cnf`),
        [
          '[ ext ]',
          options.ca === false ? 'basicConstraints = CA:FALSE' : 'basicConstraints = critical,CA:TRUE',
          'keyUsage = critical,keyCertSign,cRLSign,digitalSignature',
          ...(options.extendedKeyUsage ? [`extendedKeyUsage = ${options.extendedKeyUsage}`] : []),
          '',
        ].join('\n'),
      );
      run(
        [
          'req',
          '-new',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(subDir, 'ca.key'),
          '-out',
          `${name}.csr`,
          '-subj',
          `/CN=${subordinateName}`,
        ],
        dir,
      );
      const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
      const notAfter = options.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
      run(
        [
          'ca',
          '-batch',
          '-config',
          'ca.cnf',
          '-in',
          `${name}.csr`,
          '-out',
          join(subDir, 'ca.pem'),
          '-notext',
          '-preserveDN',
          '-startdate',
          opensslDate(notBefore),
          '-enddate',
          opensslDate(notAfter),
          '-extfile',
          `${name}.ext.cnf`,
          '-extensions',
          'ext',
        ],
        dir,
      );
      return authorityIn(subDir, `${certPem}${issuers}`);
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// --- DER encoding for the logotype extension of a VMC-like certificate (RFC 3709) ---------------

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

function derOid(oid: string): Buffer {
  const parts = oid.split('.').map(Number);
  const bytes = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const group: number[] = [];
    let n = part;
    do {
      group.unshift(n & 0x7f);
      n = Math.floor(n / 128);
    } while (n > 0);
    bytes.push(...group.map((b, i) => (i < group.length - 1 ? b | 0x80 : b)));
  }
  return tlv(0x06, Buffer.from(bytes));
}

/**
 * The DER of a logotype extension as VMCs carry it: subjectLogo [2] -> direct [0] LogotypeData ->
 * one LogotypeImage whose details give media type image/svg+xml, a SHA-256 hash of the image and a
 * `data:image/svg+xml;base64,` URI of the gzip-compressed SVG. `hashOf` lets a test publish a hash
 * of something else.
 */
export function logotypeExtensionDer(imageBytes: Buffer, options: { hashOf?: Buffer; uri?: string } = {}): Buffer {
  const uri = options.uri ?? `data:image/svg+xml;base64,${imageBytes.toString('base64')}`;
  const hash = createHash('sha256')
    .update(options.hashOf ?? imageBytes)
    .digest();
  const details = tlv(
    0x30,
    tlv(0x16, Buffer.from('image/svg+xml', 'ascii')),
    tlv(0x30, tlv(0x30, tlv(0x30, derOid('2.16.840.1.101.3.4.2.1'), Buffer.from([0x05, 0x00])), tlv(0x04, hash))),
    tlv(0x30, tlv(0x16, Buffer.from(uri, 'ascii'))),
  );
  const logotypeData = tlv(0xa0, tlv(0x30, tlv(0x30, details)));
  return tlv(0x30, tlv(0xa2, logotypeData));
}

export type MarkCertificateOverrides = Partial<IssueOptions> & {
  /** subject:markType (1.3.6.1.4.1.53087.1.13); null leaves it out. Default "Registered Mark" (a VMC). */
  readonly markType?: string | null;
  /** The logotype extension DER; null leaves it out. Default: the gzipped logo as a data: URI. */
  readonly logotype?: Buffer | null;
};

/**
 * Issue options for a VMC-like certificate: the BIMI extended key usage 1.3.6.1.5.5.7.3.31, the mark
 * certificate policy 1.3.6.1.4.1.53087.1.1, subject:markType, a SAN of brand.test and a logotype
 * extension embedding `logo` gzipped, as issued mark certificates do. Not a real VMC: the test CA
 * is no Mark Certificate root.
 */
export function markCertificateOptions(logo: Buffer, overrides: MarkCertificateOverrides = {}): IssueOptions {
  const { markType = 'Registered Mark', logotype = logotypeExtensionDer(gzipSync(logo)), ...rest } = overrides;
  return {
    hosts: ['brand.test'],
    subject: [['CN', 'Brand Inc'], ['O', 'Brand Inc'], ...(markType ? [['1.3.6.1.4.1.53087.1.13', markType] as const] : [])],
    extendedKeyUsage: '1.3.6.1.5.5.7.3.31',
    extraExtensions: ['certificatePolicies = 1.3.6.1.4.1.53087.1.1', ...(logotype ? [`1.3.6.1.5.5.7.1.12 = DER:${logotype.toString('hex')}`] : [])],
    ...rest,
  };
}

/**
 * The same certificate re-signed with its own key (issuer = subject, extensions kept): a mark
 * certificate someone made for themselves.
 */
export function selfSigned(issued: IssuedCertificate): string {
  const dir = mkdtempSync(join(tmpdir(), 'checks-self-signed-'));
  try {
    writeFileSync(join(dir, 'leaf.pem'), issued.certPem);
    writeFileSync(join(dir, 'leaf.key'), issued.keyPem);
    run(['x509', '-in', 'leaf.pem', '-signkey', 'leaf.key', '-preserve_dates', '-out', 'self.pem'], dir);
    return readFileSync(join(dir, 'self.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
