import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { normalizeDomain } from '../checks/normalize-domain.js';
import { readZoneOf } from '../../clients/dns/zone-lookup.js';
import { readVerificationTxt, recordVerified, unverifiedSentence, verificationToken, verifiedDomains } from './domain-verification.js';
import { verificationRecord, type VerificationRecord } from './verification-record.js';
import { openDnsPublisher } from '../domains/publishing/dns-connections.js';
import { publishRecords } from '../domains/publishing/publish-records.js';

/** The proof record's TTL when this service publishes it: short, as it is read once and may then be removed. */
const PROOF_TTL = 300;

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
 *
 * With `connectionId` (one of the caller's DNS connections) the proof record is first published
 * through that connection: the one record this service writes to a domain not yet proved, since
 * holding a key (or token) that changes the zone is itself proof of control. The record is then read
 * from the zone's own servers, as without it; the connection's errors (unknown connection 404, a
 * server or key refused) are the publishers' own, thrown before anything is recorded.
 */
export async function verifyDomain(rawDomain: string, ctx: Context, connectionId?: number | null): Promise<DomainVerificationResult> {
  const accountId = await requireAccountId(ctx);
  const { domain } = normalizeDomain(rawDomain, 'domain');
  const db = ctx.services.db;
  // An unknown connection is refused even for a domain already proved: the caller named it.
  if (connectionId !== undefined && connectionId !== null) await openDnsPublisher(ctx, connectionId);
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
  const published = connectionId !== undefined && connectionId !== null;
  if (published) await publishRecords(ctx, connectionId, [{ type: 'TXT', name: record.name, value: record.value, ttl: PROOF_TTL }], false);
  // Read from the zone's own servers, not a cache: a record just published is seen at once, and a
  // "does not exist" the resolver cached before it was published is not taken for the truth.
  const { dns, readFrom } = await readZoneOf(ctx.checks().dns, domain);
  const reading = await readVerificationTxt(dns, domain, token);
  if (!reading.seen) {
    const detail = published
      ? `The TXT at ${record.name} was published through DNS connection ${connectionId}, but ${readFrom} did not answer with it, so ${domain} is not verified: check that the connection points at the primary server of ${domain}'s zone (the one its NS records lead to), then try again. ${unverifiedSentence(domain, token, reading)}`
      : unverifiedSentence(domain, token, reading);
    return { domain, verified: false, verifiedAt: null, record, detail };
  }
  await recordVerified(db, accountId, [domain], ctx.now());
  const [recorded] = await verifiedDomains(db, accountId, [domain]);
  const at = (recorded?.verified_at ?? ctx.now()).toISOString();
  return {
    domain,
    verified: true,
    verifiedAt: at,
    record,
    detail: published
      ? `${domain} is verified as yours: the TXT at ${record.name}, published through DNS connection ${connectionId}, holds your token. It stays verified, so the record may be removed.`
      : `${domain} is verified as yours: the TXT at ${record.name} holds your token. It stays verified, so the record may be removed.`,
  };
}
