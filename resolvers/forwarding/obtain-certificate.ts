import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AcmeIssuer } from '../../clients/acme/acme-issuer.js';
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

/**
 * Obtains a certificate for `domain` over ACME, answering the authority's HTTP-01 challenge through
 * the acme_challenges table (every instance's forwarding listener serves it), and stores it with
 * its key sealed; the listener serves it from its next handshake. A failure is recorded with when to
 * try again (the certificate held before, if any, stays served) and thrown.
 */
export async function obtainCertificate(env: ObtainEnvironment, domain: string): Promise<{ notAfter: Date }> {
  try {
    const account = await accountFor(env);
    const issued = await env.issuer.issue({
      domain,
      accountKey: account.key,
      accountUrl: account.url,
      http01: {
        put: (challenge) => putAcmeChallenge(env.db, { token: challenge.token, domain: challenge.domain, key_authorization: challenge.keyAuthorization }),
        remove: (token) => deleteAcmeChallenge(env.db, token),
      },
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
