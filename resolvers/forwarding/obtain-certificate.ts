import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AcmeIssuer, Dns01Responder } from '../../clients/acme/acme-issuer.js';
import {
  deleteAcmeChallenge,
  findAcmeAccount,
  insertAcmeAccountOnce,
  putAcmeChallenge,
  recordCertificateFailure,
  saveIssuedCertificate,
  setAcmeAccountUrl,
} from '../../db/forwarding-certificates.js';
import { decryptSecret, encryptSecret } from '../secrets/encrypt-secret.js';
import { acmeAccountSealPurpose, certificateKeySealPurpose } from './certificate-seals.js';

export interface ObtainEnvironment {
  readonly db: Kysely<Database>;
  readonly secretsKey: Buffer;
  readonly issuer: AcmeIssuer;
  readonly directoryUrl: string;
  readonly now: () => Date;
}

/** The account key for the directory, made and stored sealed the first time (the first job to store one wins). */
async function accountFor(env: ObtainEnvironment): Promise<{ key: string; url: string | null }> {
  const purpose = acmeAccountSealPurpose(env.directoryUrl);
  const stored =
    (await findAcmeAccount(env.db, env.directoryUrl)) ??
    (await insertAcmeAccountOnce(env.db, env.directoryUrl, encryptSecret(env.secretsKey, await env.issuer.newAccountKey(), purpose)));
  return { key: decryptSecret(env.secretsKey, stored.account_key_sealed, purpose), url: stored.account_url };
}

/** After a failure, the next try: 5 minutes, doubling per failure, at most a day. */
export function certificateRetryAt(now: Date, failedAttempts: number): Date {
  return new Date(now.getTime() + Math.min(5 * 60_000 * 2 ** Math.max(0, failedAttempts - 1), 86_400_000));
}

/** DNS-01 through one of the domain's DNS connections (dns01-through-connection.ts), named in a failure's sentence. */
export interface Dns01Proof {
  readonly connectionId: number;
  readonly responder: Dns01Responder;
}

/**
 * Obtains a certificate for `domain` over ACME and stores it with its key sealed; the listener serves
 * it from its next handshake. Control is proved over HTTP-01 through the acme_challenges table (every
 * instance's forwarding listener serves it), or, given `dns01`, over DNS-01 through the domain's DNS
 * connection. A failure is recorded with when to try again (the certificate held before, if any,
 * stays served) and thrown.
 */
export async function obtainCertificate(env: ObtainEnvironment, domain: string, dns01: Dns01Proof | null = null): Promise<{ notAfter: Date }> {
  try {
    const account = await accountFor(env);
    const request = { domain, accountKey: account.key, accountUrl: account.url };
    const issued = await env.issuer
      .issue(
        dns01
          ? { ...request, dns01: dns01.responder }
          : {
              ...request,
              http01: {
                put: (challenge) =>
                  putAcmeChallenge(env.db, { token: challenge.token, domain: challenge.domain, key_authorization: challenge.keyAuthorization }),
                remove: (token) => deleteAcmeChallenge(env.db, token),
              },
            },
      )
      .catch((error: unknown) => {
        if (!dns01) throw error;
        throw new Error(`DNS-01 through DNS connection ${dns01.connectionId}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
    if (account.url !== issued.accountUrl) await setAcmeAccountUrl(env.db, env.directoryUrl, issued.accountUrl);
    await saveIssuedCertificate(env.db, {
      domain,
      certificate_pem: issued.certificatePem,
      private_key_sealed: encryptSecret(env.secretsKey, issued.privateKeyPem, certificateKeySealPurpose(domain)),
      not_before: issued.notBefore,
      not_after: issued.notAfter,
      issued_at: env.now(),
    });
    return { notAfter: issued.notAfter };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await recordCertificateFailure(env.db, domain, reason.slice(0, 500), (failed) => certificateRetryAt(env.now(), failed));
    throw error;
  }
}
