import { createHash, X509Certificate } from 'node:crypto';
import type { MarkRoots } from './mark-roots.js';
import { readCertificateFields } from './read-certificate-fields.js';
import { verifyMarkChain } from './verify-mark-chain.js';
import { decodeDataUri, readLogotypeImages } from './read-logotype.js';

export type MarkType = 'VMC' | 'CMC';

export interface MarkCertificate {
  readonly fetched: boolean;
  readonly subject: string | null;
  readonly issuer: string | null;
  readonly validFrom: string | null;
  readonly validTo: string | null;
  readonly expired: boolean | null;
  /** Whether a subjectAltName DNS name is the domain (or the domain the BIMI record was found at). */
  readonly coversDomain: boolean | null;
  readonly names: readonly string[];
  readonly markType: MarkType | null;
  /** The logotype extension is present and carries the logo as a data: URI. */
  readonly logoEmbedded: boolean;
  /** The embedded logo is byte-identical to the fetched l= logo (after un-gzipping both); null when either is missing. */
  readonly logoMatches: boolean | null;
  /** The chain reaches a Mark Verifying Authority root with every link sound; null when nothing could be read. */
  readonly chainTrusted: boolean | null;
  /** The subject of that root, or null. */
  readonly trustAnchor: string | null;
  readonly problems: readonly string[];
}

const BIMI_EKU = '1.3.6.1.5.5.7.3.31';
const LOGOTYPE = '1.3.6.1.5.5.7.1.12';
const MARK_TYPE = '1.3.6.1.4.1.53087.1.13';
const TRADEMARK_REGISTRATION = '1.3.6.1.4.1.53087.1.4';
const MARK_POLICY = '1.3.6.1.4.1.53087.1.1';
// Minimum Security Requirements for Mark Certificates: subject:markType values and the certificate each belongs to.
const MARK_TYPES: Readonly<Record<string, MarkType>> = {
  'registered mark': 'VMC',
  'government mark': 'VMC',
  'prior use mark': 'CMC',
  'modified registered mark': 'CMC',
  'pending registration mark': 'CMC',
  'provisional mark': 'CMC',
};

/**
 * What a BIMI evidence document (a PEM file, leaf first) says: the leaf's names, dates and issuer,
 * whether it is a mark certificate (EKU id-kp-BrandIndicatorforMessageIdentification), which kind
 * (VMC or CMC from subject:markType, or a trademark registration number), whether its SANs cover
 * the domain, and whether its logotype extension embeds the same SVG as the l= logo with a matching
 * hash. It checks that each certificate in the file is issued and signed by the next one, and that
 * the chain ends at a Mark Verifying Authority root (`roots`: the bundled file plus the operator's
 * BIMI_EXTRA_ROOTS_FILE); a self-signed or unchained certificate is never accepted.
 *
 * Not checked: revocation and certificate transparency.
 */
export function inspectMarkCertificate(
  pem: Buffer,
  options: { domains: readonly string[]; now: Date; logo: Buffer | null; roots: MarkRoots },
): MarkCertificate {
  const problems: string[] = [];
  const blocks = pem.toString('latin1').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const empty = unreadMarkCertificate(true, problems);
  if (blocks.length === 0) {
    problems.push('the evidence document holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    return empty;
  }
  let chain: X509Certificate[];
  try {
    chain = blocks.map((block) => new X509Certificate(block));
  } catch {
    problems.push('a certificate in the evidence document cannot be parsed');
    return empty;
  }
  const leaf = chain[0]!;
  for (let i = 0; i + 1 < chain.length; i++) {
    if (!chain[i]!.checkIssued(chain[i + 1]!) || !chain[i]!.verify(chain[i + 1]!.publicKey)) {
      problems.push(
        `certificate ${i + 1} in the file is not issued and signed by certificate ${i + 2}; put the mark certificate first, then its issuers in order`,
      );
    }
  }
  const trust = verifyMarkChain(chain, options.roots, options.now);
  problems.push(...trust.problems);

  const validFrom = new Date(leaf.validFrom);
  const validTo = new Date(leaf.validTo);
  const expired = options.now.getTime() > validTo.getTime();
  if (expired) problems.push(`the mark certificate expired on ${validTo.toISOString().slice(0, 10)}; renew it with the issuing CA`);
  if (options.now.getTime() < validFrom.getTime()) problems.push(`the mark certificate is not valid before ${validFrom.toISOString().slice(0, 10)}`);

  const names = (leaf.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((n) => n.startsWith('DNS:'))
    .map((n) => n.slice(4).toLowerCase());
  const wanted = options.domains.map((d) => d.toLowerCase());
  const coversDomain = names.some((n) => wanted.includes(n));
  if (!coversDomain) problems.push(`the certificate's names (${names.join(', ') || 'none'}) do not include ${wanted.join(' or ')}`);

  let markType: MarkType | null = null;
  let logoEmbedded = false;
  let logoMatches: boolean | null = null;
  try {
    const fields = readCertificateFields(leaf.raw);
    if (!fields.extendedKeyUsage.includes(BIMI_EKU)) {
      problems.push(`the certificate is not a mark certificate: its extended key usage lacks ${BIMI_EKU} (Brand Indicator for Message Identification)`);
    }
    if (!fields.policies.includes(MARK_POLICY)) problems.push(`the certificate does not carry the mark certificate policy ${MARK_POLICY}`);
    const declared = fields.subject.find((a) => a.oid === MARK_TYPE)?.value;
    markType = declared ? (MARK_TYPES[declared.trim().toLowerCase()] ?? null) : null;
    if (declared && !markType) problems.push(`the subject markType "${declared}" is not a known mark type`);
    // Certificates issued before markType existed are VMCs identified by their trademark registration.
    if (!declared && fields.subject.some((a) => a.oid === TRADEMARK_REGISTRATION)) markType = 'VMC';

    const extension = fields.extensions.get(LOGOTYPE);
    if (!extension) {
      problems.push('the certificate has no logotype extension (1.3.6.1.5.5.7.1.12) carrying the logo');
    } else {
      const images = readLogotypeImages(extension);
      const embedded = images.flatMap((image) => image.uris.map((uri) => ({ image, data: decodeDataUri(uri) }))).find((e) => e.data !== null);
      if (!embedded || !embedded.data) {
        problems.push('the logotype extension does not embed the logo as a data: URI');
      } else {
        logoEmbedded = true;
        const { raw, content } = embedded.data;
        const known = embedded.image.hashes.filter((h) => ['sha1', 'sha256', 'sha384', 'sha512'].includes(h.algorithm));
        if (
          known.length > 0 &&
          !known.some((h) => createHash(h.algorithm).update(raw).digest().equals(h.value) || createHash(h.algorithm).update(content).digest().equals(h.value))
        ) {
          problems.push('the logotype hash in the certificate does not match the embedded logo');
        }
        if (options.logo) {
          logoMatches = content.equals(options.logo);
          if (!logoMatches)
            problems.push(
              'the logo embedded in the certificate is not identical to the SVG at the l= URL; publish exactly the SVG the certificate was issued for',
            );
        }
      }
    }
  } catch {
    problems.push('the certificate extensions could not be read');
  }

  return {
    fetched: true,
    subject: leaf.subject.split('\n').join(', '),
    issuer: leaf.issuer.split('\n').join(', '),
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    expired,
    coversDomain,
    names,
    markType,
    logoEmbedded,
    logoMatches,
    chainTrusted: trust.trusted,
    trustAnchor: trust.anchor,
    problems,
  };
}

/** A mark certificate nothing could be read from: every field unknown, with the problems that say why. */
export function unreadMarkCertificate(fetched: boolean, problems: string[]): MarkCertificate {
  return {
    fetched,
    subject: null,
    issuer: null,
    validFrom: null,
    validTo: null,
    expired: null,
    coversDomain: null,
    names: [],
    markType: null,
    logoEmbedded: false,
    logoMatches: null,
    chainTrusted: null,
    trustAnchor: null,
    problems,
  };
}
