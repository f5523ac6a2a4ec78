import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import acme from 'acme-client';

/**
 * The ACME protocol (RFC 8555) through acme-client: an account key, an order for one name, its
 * HTTP-01 or DNS-01 challenge handed to the caller to answer, the certificate fetched. Nothing here
 * knows the database or the domains: resolvers/forwarding/obtain-certificate.ts stores what this returns.
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

/**
 * Publishes and withdraws one DNS-01 answer: TXT at `name` (`_acme-challenge.<domain>`) holding
 * `value`. put resolves once the domain's own name servers serve it, so the authority finds it when
 * it looks; remove withdraws what put wrote.
 */
export interface Dns01Responder {
  put(challenge: { readonly domain: string; readonly name: string; readonly value: string }): Promise<void>;
  remove(challenge: { readonly domain: string; readonly name: string; readonly value: string }): Promise<void>;
}

/** How control over the name is proved: HTTP-01 on the forwarding listener, or DNS-01 in the domain's zone. */
export type ChallengeAnswer = { readonly http01: Http01Responder } | { readonly dns01: Dns01Responder };

export interface IssuedCertificate {
  /** The leaf and its chain, PEM. */
  readonly certificatePem: string;
  /** The leaf's private key, PEM (PKCS #1): the caller seals it. */
  readonly privateKeyPem: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The account's URL at the authority (stored, so the next order skips the registration round trip). */
  readonly accountUrl: string;
}

export interface AcmeIssuer {
  /** A new account key (ECDSA P-256), PEM: made once per directory, then stored sealed. */
  newAccountKey(): Promise<string>;
  /** Orders a certificate for `domain` under the account of `accountKey`, proving control over HTTP-01 or DNS-01 (whichever responder is given). */
  issue(request: { readonly domain: string; readonly accountKey: string; readonly accountUrl: string | null } & ChallengeAnswer): Promise<IssuedCertificate>;
}

/**
 * How acme-client polls an order or authorization still pending: from half a second up to 15 s,
 * twelve times (its default starts at 5 s, which costs every issuance 5 s against an authority that
 * validates at once). An authority's Retry-After still applies.
 */
const BACKOFF = { backoffAttempts: 12, backoffMin: 500, backoffMax: 15_000 } as const;

/**
 * The certificate's key (ECDSA P-256, PKCS #8 PEM) and a CSR naming `domain`, both made by
 * acme-client's @peculiar/x509 helpers. P-256 rather than RSA: every client that speaks TLS 1.2
 * takes it, a handshake costs less, and the key is made in a millisecond instead of RSA's hundreds.
 * (package.json's overrides keep one copy of @peculiar/asn1-schema; with two, these helpers failed
 * with "Cannot get schema for 'CertificationRequestInfo' target".)
 */
async function certificateRequest(domain: string): Promise<[privateKeyPem: string, csr: Buffer]> {
  const key = await acme.crypto.createPrivateEcdsaKey('P-256');
  const [, csr] = await acme.crypto.createCsr({ commonName: domain, altNames: [domain] }, key);
  return [key.toString(), csr];
}

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

/**
 * Registers the account key, or finds it registered: several jobs that start before the first has
 * stored the account's URL each register the same key. The authority then answers 200 with the
 * account's URL, and acme-client follows with an update holding only the terms, which pebble refuses
 * ("Use POST-as-GET ... instead of doing an empty update") when there is no contact to send. The URL
 * is all the order needs, so that refusal is not a failure once the URL is known.
 */
async function registerAccount(client: acme.Client, email: string | null): Promise<void> {
  try {
    await client.createAccount({ termsOfServiceAgreed: true, ...(email !== null && { contact: [`mailto:${email}`] }) });
  } catch (error) {
    try {
      client.getAccountUrl();
    } catch {
      throw error;
    }
  }
}

/**
 * Answers one authorization's challenge of the kind the request's responder serves, and withdraws
 * the answer once the authority has decided (valid or not).
 */
async function answerChallenge(client: acme.Client, authz: acme.Authorization, request: { readonly domain: string } & ChallengeAnswer): Promise<void> {
  const { domain } = request;
  const type = 'dns01' in request ? 'dns-01' : 'http-01';
  const challenge = authz.challenges.find((c) => c.type === type);
  if (!challenge)
    throw new Error(
      `The ACME authority offers no ${type.toUpperCase()} challenge for ${domain} (only ${authz.challenges.map((c) => c.type).join(', ')}), so its certificate cannot be obtained this way.`,
    );
  // For DNS-01 acme-client answers the TXT value: the key authorization's SHA-256, base64url (RFC 8555 8.4).
  const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
  let withdraw: () => Promise<void>;
  if ('dns01' in request) {
    const txt = { domain, name: `_acme-challenge.${domain}`, value: keyAuthorization };
    withdraw = () => request.dns01.remove(txt);
    await request.dns01.put(txt).catch(async (error: unknown) => {
      // A put that wrote and then failed waiting is withdrawn too.
      await withdraw().catch(() => undefined);
      throw error;
    });
  } else {
    const token = challenge.token;
    withdraw = () => request.http01.remove(token);
    await request.http01.put({ domain, token, keyAuthorization });
  }
  try {
    await client.completeChallenge(challenge);
    await client.waitForValidStatus(challenge);
  } finally {
    await withdraw();
  }
}

export function createAcmeIssuer(options: AcmeIssuerOptions): AcmeIssuer {
  if (options.caFile !== null) trustDirectoryCa(options.caFile);
  return {
    async newAccountKey() {
      return (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
    },
    async issue(request) {
      const { domain, accountKey, accountUrl } = request;
      const client = new acme.Client({ directoryUrl: options.directoryUrl, accountKey, ...(accountUrl !== null && { accountUrl }), ...BACKOFF });
      if (accountUrl === null) await registerAccount(client, options.email);
      const [privateKeyPem, csr] = await certificateRequest(domain);
      const order = await client.createOrder({ identifiers: [{ type: 'dns', value: domain }] });
      for (const authz of await client.getAuthorizations(order)) {
        // An authorization the account already holds (the authority may reuse one) needs no challenge.
        if (authz.status === 'valid') continue;
        await answerChallenge(client, authz, request);
      }
      const finalized = await client.finalizeOrder(order, csr);
      const certificatePem = await client.getCertificate(finalized);
      const leaf = new X509Certificate(certificatePem);
      return {
        certificatePem,
        privateKeyPem,
        notBefore: new Date(leaf.validFrom),
        notAfter: new Date(leaf.validTo),
        accountUrl: client.getAccountUrl(),
      };
    },
  };
}
