import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { DomainError, operation, sentence } from '../../domain-error.js';
import { verifiedDomains, verificationToken } from '../../orders/domain-verification.js';
import { verificationName, verificationValue } from '../../orders/verification-record.js';

/** Records are published only to a domain proved the account's (409 domain_not_verified, with the proof to publish). */
export async function requireVerifiedDomain(db: Kysely<Database>, accountId: number, domain: string): Promise<void> {
  const [verified] = await verifiedDomains(db, accountId, [domain]);
  if (verified) return;
  const token = await verificationToken(db, accountId);
  throw new DomainError(
    'domain_not_verified',
    sentence`${domain} is not verified as yours, so its records are not published for you: publish TXT at ${verificationName(domain)} with the value "${verificationValue(token)}", then ${operation('verify_domain', { domain })} and apply again.`,
  );
}
