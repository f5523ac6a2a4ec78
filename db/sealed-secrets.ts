import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Every column holding a value sealed with SECRETS_KEY, read and written for a key rotation
 * (resolvers/secrets/rotate-secrets.ts). A new sealed column belongs here too, or a rotation would
 * leave it under the old key.
 */

export function listSealedDnsConnectionSecrets(db: Kysely<Database>) {
  return db.selectFrom('dns_connections').select(['id', 'account_id', 'secret_sealed']).orderBy('id').execute();
}

export async function setDnsConnectionSecretSealed(db: Kysely<Database>, id: number, sealed: string): Promise<void> {
  await db.updateTable('dns_connections').set({ secret_sealed: sealed }).where('id', '=', id).execute();
}

export function listSealedDkimKeys(db: Kysely<Database>) {
  return db.selectFrom('domain_dkim_keys').select(['domain_id', 'private_key_sealed']).orderBy('domain_id').execute();
}

export async function setDkimKeySealed(db: Kysely<Database>, domainId: number, sealed: string): Promise<void> {
  await db.updateTable('domain_dkim_keys').set({ private_key_sealed: sealed }).where('domain_id', '=', domainId).execute();
}

export async function listSealedMailboxPasswords(db: Kysely<Database>) {
  const rows = await db.selectFrom('mailboxes').select(['id', 'password_sealed']).where('password_sealed', 'is not', null).orderBy('id').execute();
  return rows.flatMap((r) => (r.password_sealed === null ? [] : [{ id: r.id, password_sealed: r.password_sealed }]));
}

export async function setMailboxPasswordSealed(db: Kysely<Database>, id: number, sealed: string): Promise<void> {
  await db.updateTable('mailboxes').set({ password_sealed: sealed }).where('id', '=', id).execute();
}

export function listSealedOAuthKeys(db: Kysely<Database>) {
  return db.selectFrom('oauth_keys').select(['kind', 'value']).orderBy('kind').execute();
}

export async function setOAuthKeySealed(db: Kysely<Database>, kind: string, sealed: string): Promise<void> {
  await db.updateTable('oauth_keys').set({ value: sealed }).where('kind', '=', kind).execute();
}

export async function listSealedCertificateKeys(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('forwarding_certificates')
    .select(['domain', 'private_key_sealed'])
    .where('private_key_sealed', 'is not', null)
    .orderBy('domain')
    .execute();
  return rows.flatMap((r) => (r.private_key_sealed === null ? [] : [{ domain: r.domain, private_key_sealed: r.private_key_sealed }]));
}

export async function setCertificateKeySealed(db: Kysely<Database>, domain: string, sealed: string): Promise<void> {
  await db.updateTable('forwarding_certificates').set({ private_key_sealed: sealed }).where('domain', '=', domain).execute();
}

export function listSealedAcmeAccountKeys(db: Kysely<Database>) {
  return db.selectFrom('acme_accounts').select(['directory_url', 'account_key_sealed']).orderBy('directory_url').execute();
}

export async function setAcmeAccountKeySealed(db: Kysely<Database>, directoryUrl: string, sealed: string): Promise<void> {
  await db.updateTable('acme_accounts').set({ account_key_sealed: sealed }).where('directory_url', '=', directoryUrl).execute();
}
