import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  listSealedAcmeAccountKeys,
  listSealedCertificateKeys,
  listSealedDkimKeys,
  listSealedDnsConnectionSecrets,
  listSealedMailboxPasswords,
  listSealedOAuthKeys,
  setAcmeAccountKeySealed,
  setCertificateKeySealed,
  setDkimKeySealed,
  setDnsConnectionSecretSealed,
  setMailboxPasswordSealed,
  setOAuthKeySealed,
} from '../../db/sealed-secrets.js';
import { sealPurpose as dnsConnectionSealPurpose } from '../domains/publishing/dns-connections.js';
import { dkimSealPurpose } from '../domains/setup/dkim-keys.js';
import { mailboxSealPurpose } from '../mailboxes/mailbox-passwords.js';
import { oauthKeySealPurpose } from '../oauth/oauth-keys.js';
import { acmeAccountSealPurpose, certificateKeySealPurpose } from '../forwarding/certificate-seals.js';

/** One value sealed with SECRETS_KEY, where it lives, what it is bound to, and how to write it back re-sealed. */
export interface SealedSecret {
  /** Where it is, for a sentence: "dns_connections 12". */
  readonly where: string;
  /** The purpose (AAD) it was sealed for (encrypt-secret.ts). */
  readonly purpose: string;
  readonly sealed: string;
  write(db: Kysely<Database>, sealed: string): Promise<void>;
}

/**
 * Every sealed secret the database holds, table by table: DNS connection secrets, DKIM private keys,
 * mailbox passwords, the authorization server's keys, the ACME account keys and the forwarded
 * domains' certificate keys (the canary is apart: secrets-canary.ts).
 */
export async function listSealedSecrets(db: Kysely<Database>): Promise<SealedSecret[]> {
  const [connections, dkim, mailboxes, oauth, acmeAccounts, certificates] = await Promise.all([
    listSealedDnsConnectionSecrets(db),
    listSealedDkimKeys(db),
    listSealedMailboxPasswords(db),
    listSealedOAuthKeys(db),
    listSealedAcmeAccountKeys(db),
    listSealedCertificateKeys(db),
  ]);
  return [
    ...connections.map((r) => ({
      where: `dns_connections ${r.id}`,
      purpose: dnsConnectionSealPurpose(r.account_id),
      sealed: r.secret_sealed,
      write: (to: Kysely<Database>, sealed: string) => setDnsConnectionSecretSealed(to, r.id, sealed),
    })),
    ...dkim.map((r) => ({
      where: `domain_dkim_keys ${r.domain_id}`,
      purpose: dkimSealPurpose(r.domain_id),
      sealed: r.private_key_sealed,
      write: (to: Kysely<Database>, sealed: string) => setDkimKeySealed(to, r.domain_id, sealed),
    })),
    ...mailboxes.map((r) => ({
      where: `mailboxes ${r.id}`,
      purpose: mailboxSealPurpose(r.id),
      sealed: r.password_sealed,
      write: (to: Kysely<Database>, sealed: string) => setMailboxPasswordSealed(to, r.id, sealed),
    })),
    ...oauth.map((r) => ({
      where: `oauth_keys ${r.kind}`,
      purpose: oauthKeySealPurpose(r.kind),
      sealed: r.value,
      write: (to: Kysely<Database>, sealed: string) => setOAuthKeySealed(to, r.kind, sealed),
    })),
    ...acmeAccounts.map((r) => ({
      where: `acme_accounts ${r.directory_url}`,
      purpose: acmeAccountSealPurpose(r.directory_url),
      sealed: r.account_key_sealed,
      write: (to: Kysely<Database>, sealed: string) => setAcmeAccountKeySealed(to, r.directory_url, sealed),
    })),
    ...certificates.map((r) => ({
      where: `forwarding_certificates ${r.domain}`,
      purpose: certificateKeySealPurpose(r.domain),
      sealed: r.private_key_sealed,
      write: (to: Kysely<Database>, sealed: string) => setCertificateKeySealed(to, r.domain, sealed),
    })),
  ];
}
