import { findDomainDkimKey, insertDomainDkimKeyOnce } from '../../../db/domain-dkim-keys.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { encryptSecret } from '../../secrets/encrypt-secret.js';
import type { DkimKeyPair } from '../../../clients/mailboxes/provisioning-adapter.js';

/** The domain's key, public half only (the private half stays sealed in the table). */
export async function findDkimKey(db: Kysely<Database>, domainId: number): Promise<{ selector: string; public_key: string } | undefined> {
  return findDomainDkimKey(db, domainId);
}

/**
 * Keeps the first key made for a domain: a retried build that made another pair keeps the stored
 * one, so the record a customer already published stays right.
 */
export async function storeDkimKey(db: Kysely<Database>, secretsKey: Buffer, domainId: number, pair: DkimKeyPair): Promise<void> {
  await insertDomainDkimKeyOnce(db, {
    domain_id: domainId,
    selector: pair.selector,
    public_key: pair.publicKey,
    private_key_sealed: encryptSecret(secretsKey, pair.privateKeyPem, dkimSealPurpose(domainId)),
  });
}

/** What a DKIM private key's seal is bound to: it opens for its own domain row only. */
export function dkimSealPurpose(domainId: number): string {
  return `dkim:${domainId}`;
}
