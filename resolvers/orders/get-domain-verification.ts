import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { verificationToken, verifiedDomains } from './domain-verification.js';
import { VERIFICATION_LABEL, verificationValue } from './verification-record.js';

export interface DomainVerificationView {
  readonly token: string;
  readonly record: { readonly nameTemplate: string; readonly type: 'TXT'; readonly value: string };
  readonly verifiedDomains: readonly { readonly domain: string; readonly verifiedAt: string }[];
}

/** GET /v1/domains/verification: the account's token, the record to publish, and the domains already proved. */
export async function getDomainVerification(ctx: Context): Promise<DomainVerificationView> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const token = await verificationToken(db, accountId);
  const verified = await verifiedDomains(db, accountId);
  return {
    token,
    record: { nameTemplate: `${VERIFICATION_LABEL}.<domain>`, type: 'TXT', value: verificationValue(token) },
    verifiedDomains: verified.map((v) => ({ domain: v.domain, verifiedAt: v.verified_at.toISOString() })),
  };
}
