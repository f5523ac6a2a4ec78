import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import acme from 'acme-client';

/**
 * The ACME protocol (RFC 8555) through acme-client: an account key, an order for one name, its
 * HTTP-01 challenge handed to the caller to serve, the certificate fetched. Nothing here knows the
 * database or the domains: resolvers/forwarding/obtain-certificate.ts stores what this returns.
 */

export interface AcmeIssuerOptions {
  readonly directoryUrl: string;
  /** PEM certificates trusted beside Node's roots for the directory's HTTPS (a private or test authority). */
  readonly caFile: string | null;
  /** The account's contact (mailto:), where the authority writes about expiring certificates. */
  readonly email: string | null;
}

/** Serves and withdraws one HTTP-01 answer: `/.well-known/acme-challenge/<token>` on `domain` answers `keyAuthorization`. */
export interface Http01Responder {
  put(challenge: { readonly domain: string; readonly token: string; readonly keyAuthorization: string }): Promise<void>;
  remove(token: string): Promise<void>;
}

export interface IssuedCertificate {
  /** The leaf and its chain, PEM. */
  readonly certificatePem: string;
  /** The leaf's private key, PEM (PKCS #8 or SEC 1): the caller seals it. */
  readonly privateKeyPem: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The account's URL at the authority (stored, so the next order skips the registration round trip). */
  readonly accountUrl: string;
}

export interface AcmeIssuer {
  /** A new account key (ECDSA P-256), PEM: made once per directory, then stored sealed. */
  newAccountKey(): Promise<string>;
  /** Orders a certificate for `domain` under the account of `accountKey`, proving control over HTTP-01. */
  issue(request: { readonly domain: string; readonly accountKey: string; readonly accountUrl: string | null; readonly http01: Http01Responder }): Promise<IssuedCertificate>;
}

/**
 * How acme-client polls an order or authorization still pending: from half a second up to 15 s,
 * twelve times (its default starts at 5 s, which costs every issuance 5 s against an authority that
 * validates at once). An authority's Retry-After still applies.
 */
const BACKOFF = { backoffAttempts: 12, backoffMin: 500, backoffMax: 15_000 } as const;

/**
 * acme-client makes its requests through one shared axios instance; an extra CA for the directory
 * (ACME_CA_FILE) is set on it once, for the whole process, as only one directory is configured.
 */
function trustDirectoryCa(caFile: string): void {
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (error) {
    throw new Error(`ACME_CA_FILE (${caFile}) cannot be read: ${error instanceof Error ? error.message : String(error)}.`);
  }
  acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, pem], keepAlive: true });
}

export function createAcmeIssuer(options: AcmeIssuerOptions): AcmeIssuer {
  if (options.caFile !== null) trustDirectoryCa(options.caFile);
  return {
    async newAccountKey() {
      return (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
    },
    async issue({ domain, accountKey, accountUrl, http01 }) {
      const client = new acme.Client({ directoryUrl: options.directoryUrl, accountKey, ...(accountUrl !== null && { accountUrl }), ...BACKOFF });
      const [privateKey, csr] = await acme.crypto.createCsr({ commonName: domain, altNames: [domain] }, await acme.crypto.createPrivateEcdsaKey('P-256'));
      const certificatePem = await client.auto({
        csr,
        ...(options.email !== null && { email: options.email }),
        termsOfServiceAgreed: true,
        challengePriority: ['http-01'],
        // acme-client would fetch the challenge itself first, from this process: the name may not
        // resolve here as it does for the authority, and the authority checks it anyway.
        skipChallengeVerification: true,
        challengeCreateFn: (_authz, challenge, keyAuthorization) => http01.put({ domain, token: challenge.token, keyAuthorization }),
        challengeRemoveFn: (_authz, challenge) => http01.remove(challenge.token),
      });
      const leaf = new X509Certificate(certificatePem);
      return {
        certificatePem,
        privateKeyPem: privateKey.toString(),
        notBefore: new Date(leaf.validFrom),
        notAfter: new Date(leaf.validTo),
        accountUrl: client.getAccountUrl(),
      };
    },
  };
}
