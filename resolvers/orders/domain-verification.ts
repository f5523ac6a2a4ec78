import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findDomainVerificationToken, insertDomainVerificationTokenOnce } from '../../db/domain-verification-tokens.js';
import { insertVerifiedDomains, listVerifiedDomains } from '../../db/verified-domains.js';
import { permanentFailureAdvice } from '../checks/dns/failure-advice.js';
import type { DnsLookup } from '../../clients/dns/dns-types.js';
import { verificationName, verificationValue } from './verification-record.js';

/** The account's token, made (random, 128 bits) the first time it is asked for. */
export async function verificationToken(db: Kysely<Database>, accountId: number): Promise<string> {
  const found = await findDomainVerificationToken(db, accountId);
  if (found) return found.token;
  // Two first requests at once: the loser keeps the winner's token.
  await insertDomainVerificationTokenOnce(db, accountId, randomBytes(16).toString('hex'));
  const row = await findDomainVerificationToken(db, accountId);
  if (!row) throw new Error(`account ${accountId} has no domain verification token after storing one`);
  return row.token;
}

/** Which of these domains the account has already proved (all of them when `domains` is left out). */
export async function verifiedDomains(db: Kysely<Database>, accountId: number, domains?: readonly string[]): Promise<{ domain: string; verified_at: Date }[]> {
  if (domains && domains.length === 0) return [];
  return listVerifiedDomains(db, accountId, domains);
}

export type TxtReading =
  | { readonly seen: true }
  | { readonly seen: false; readonly why: 'absent' | 'other_value' | 'lookup_failed'; readonly failure?: string; readonly advice?: string };

/** Looks the TXT up now, through the checks' DNS; a record is its character-strings joined (RFC 7208 3.3 style). */
export async function readVerificationTxt(dns: DnsLookup, domain: string, token: string): Promise<TxtReading> {
  const answer = await dns.lookup(verificationName(domain), 'TXT');
  if (!answer.ok) {
    if (answer.failure === 'nxdomain' || answer.failure === 'nodata') return { seen: false, why: 'absent' };
    const advice = permanentFailureAdvice(answer);
    return { seen: false, why: 'lookup_failed', failure: answer.failure, ...(advice && { advice }) };
  }
  const wanted = verificationValue(token);
  if (answer.records.some((r) => r.data.join('').trim() === wanted)) return { seen: true };
  return { seen: false, why: answer.records.length ? 'other_value' : 'absent' };
}

/** Once seen, a domain stays verified for the account; a second sighting keeps the first date. */
export async function recordVerified(db: Kysely<Database>, accountId: number, domains: readonly string[], now: Date): Promise<void> {
  if (domains.length === 0) return;
  await insertVerifiedDomains(db, accountId, domains, now);
}

/** The sentence a refusal or a failed "check now" carries: what to publish, and what was found instead. */
export function unverifiedSentence(domain: string, token: string, reading: Exclude<TxtReading, { seen: true }>): string {
  const publish = `publish TXT at ${verificationName(domain)} with the value "${verificationValue(token)}"`;
  if (reading.why === 'lookup_failed')
    return reading.advice
      ? `Whether ${domain} is yours could not be checked (the TXT lookup at ${verificationName(domain)} failed: ${reading.failure}). ${reading.advice}`
      : `Whether ${domain} is yours could not be checked (the TXT lookup at ${verificationName(domain)} failed: ${reading.failure}); make sure you ${publish}, then try again.`;
  if (reading.why === 'other_value')
    return `${domain} is not verified as yours: ${verificationName(domain)} has TXT records, but none is "${verificationValue(token)}"; ${publish}, then try again.`;
  return `${domain} is not verified as yours: ${publish} at your DNS provider, then try again (it stays verified once seen).`;
}
