import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { normalizeDomain } from '../checks/normalize-domain.js';
import { readZoneOf } from '../checks/dns/zone-lookup.js';
import { readVerificationTxt, recordVerified, unverifiedSentence, verificationToken, verifiedDomains } from './domain-verification.js';
import { verificationRecord, type VerificationRecord } from './verification-record.js';

export interface DomainVerificationResult {
  readonly domain: string;
  readonly verified: boolean;
  readonly verifiedAt: string | null;
  readonly record: VerificationRecord;
  readonly detail: string;
}

/**
 * POST /v1/domains/{domain}/verify, "check now": a domain already proved answers at once; otherwise
 * the TXT is looked up now and, when it holds the account's token, the domain is recorded as verified.
 */
export async function verifyDomain(rawDomain: string, ctx: Context): Promise<DomainVerificationResult> {
  const accountId = await requireAccountId(ctx);
  const { domain } = normalizeDomain(rawDomain, 'domain');
  const db = ctx.services.db;
  const token = await verificationToken(db, accountId);
  const record = verificationRecord(domain, token);
  const [known] = await verifiedDomains(db, accountId, [domain]);
  if (known) {
    return {
      domain,
      verified: true,
      verifiedAt: known.verified_at.toISOString(),
      record,
      detail: `${domain} is verified as yours since ${known.verified_at.toISOString()}; it can be ordered.`,
    };
  }
  // Read from the zone's own servers, not a cache: a record just published is seen at once, and a
  // "does not exist" the resolver cached before it was published is not taken for the truth.
  const { dns } = await readZoneOf(ctx.checks().dns, domain);
  const reading = await readVerificationTxt(dns, domain, token);
  if (!reading.seen) return { domain, verified: false, verifiedAt: null, record, detail: unverifiedSentence(domain, token, reading) };
  await recordVerified(db, accountId, [domain], ctx.now());
  const [recorded] = await verifiedDomains(db, accountId, [domain]);
  const at = (recorded?.verified_at ?? ctx.now()).toISOString();
  return {
    domain,
    verified: true,
    verifiedAt: at,
    record,
    detail: `${domain} is verified as yours: the TXT at ${record.name} holds your token. It stays verified, so the record may be removed.`,
  };
}
