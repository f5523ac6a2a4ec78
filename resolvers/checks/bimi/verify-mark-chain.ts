import type { X509Certificate } from 'node:crypto';
import type { MarkRoots } from './mark-roots.js';
import { readCertificateFields } from './read-certificate-fields.js';

export interface MarkChainVerdict {
  /** The chain reaches a Mark Verifying Authority root and every link is sound. */
  readonly trusted: boolean;
  /** The subject of the root the chain ends at, or null when it reaches none. */
  readonly anchor: string | null;
  readonly problems: readonly string[];
}

const BIMI_EKU = '1.3.6.1.5.5.7.3.31';
const ANY_EKU = '2.5.29.37.0';
// Mark certificate hierarchies are root -> issuing CA -> mark certificate; a few extra levels are
// tolerated, but a file cannot make us walk forever.
const MAX_DEPTH = 6;

/**
 * Whether the mark certificate `chain[0]` chains to one of `roots`, using the other certificates of
 * the evidence document as intermediates in whatever order they come. Each link must be issued by
 * (names match, checkIssued) and signed with (verify) the next; the issuers must be CA certificates,
 * valid at `now`, and an issuing CA that restricts its extended key usages must allow BIMI's
 * (1.3.6.1.5.5.7.3.31). A self-signed certificate passes only if it is itself one of the roots'
 * keys, which a mark certificate never is; a root is matched by key, not by name, so a file carrying
 * a look-alike "DigiCert Verified Mark Root CA" of its own is still untrusted.
 */
export function verifyMarkChain(chain: readonly X509Certificate[], roots: MarkRoots, now: Date): MarkChainVerdict {
  const leaf = chain[0];
  if (!leaf) return { trusted: false, anchor: null, problems: ['the evidence document holds no certificate'] };
  const problems: string[] = [];
  const path: X509Certificate[] = [leaf];
  let anchor: X509Certificate | null = null;
  let current = leaf;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const root = roots.certificates.find((candidate) => issuedBy(current, candidate));
    if (root) {
      anchor = root;
      break;
    }
    // Self-issued (subject = issuer) and self-signed: a real root would have matched above. Not
    // checkIssued: a leaf's key usage and authority key identifier make it refuse a self-signed leaf.
    if (current.subject === current.issuer && signedWith(current, current)) {
      problems.push(
        current === leaf
          ? 'the mark certificate is self-signed; a VMC or CMC must be issued by a Mark Verifying Authority (such as DigiCert, Entrust, GlobalSign or SSL.com), so it cannot be trusted'
          : `the chain ends at the self-signed "${name(current)}", which is not a Mark Verifying Authority root; get the certificate from an authority BIMI receivers trust`,
      );
      break;
    }
    const next = chain.slice(1).find((candidate) => !path.includes(candidate) && issuedBy(current, candidate));
    if (!next) {
      problems.push(
        `the chain stops at "${name(current)}": its issuer "${issuerName(current)}" is neither a Mark Verifying Authority root nor in the file; put the issuing authority's intermediate certificates after the mark certificate`,
      );
      break;
    }
    if (depth === MAX_DEPTH) {
      problems.push(`the chain is longer than ${MAX_DEPTH} certificates without reaching a Mark Verifying Authority root`);
      break;
    }
    path.push(next);
    current = next;
  }
  if (anchor) {
    for (const issuer of [...path.slice(1), anchor]) {
      if (!issuer.ca) problems.push(`"${name(issuer)}" issued a certificate in the chain but is not a CA certificate`);
      const from = new Date(issuer.validFrom);
      const to = new Date(issuer.validTo);
      if (now.getTime() > to.getTime()) problems.push(`the issuing certificate "${name(issuer)}" expired on ${to.toISOString().slice(0, 10)}`);
      if (now.getTime() < from.getTime()) problems.push(`the issuing certificate "${name(issuer)}" is not valid before ${from.toISOString().slice(0, 10)}`);
    }
    for (const intermediate of path.slice(1)) {
      const usages = extendedKeyUsages(intermediate);
      if (usages && !usages.includes(BIMI_EKU) && !usages.includes(ANY_EKU)) {
        problems.push(`the issuing certificate "${name(intermediate)}" is not allowed to issue mark certificates: its extended key usage lacks ${BIMI_EKU}`);
      }
    }
  }
  return { trusted: anchor !== null && problems.length === 0, anchor: anchor ? anchor.subject.split('\n').join(', ') : null, problems };
}

function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  return child.checkIssued(issuer) && signedWith(child, issuer);
}

function signedWith(child: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return child.verify(issuer.publicKey);
  } catch {
    // An unsupported key or signature algorithm is no proof of issuance.
    return false;
  }
}

/** The certificate's extended key usages, or null when it carries no such extension (no restriction). */
function extendedKeyUsages(certificate: X509Certificate): readonly string[] | null {
  try {
    const fields = readCertificateFields(certificate.raw);
    return fields.extensions.has('2.5.29.37') ? fields.extendedKeyUsage : null;
  } catch {
    return null;
  }
}

function name(certificate: X509Certificate): string {
  return commonName(certificate.subject);
}

function issuerName(certificate: X509Certificate): string {
  return commonName(certificate.issuer);
}

function commonName(distinguished: string): string {
  const lines = distinguished.split('\n');
  return lines.find((line) => line.startsWith('CN='))?.slice(3) ?? lines.join(', ');
}
