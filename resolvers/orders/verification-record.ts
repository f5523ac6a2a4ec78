/**
 * The record that proves a domain is the account's own (issue 12, item 6): TXT at
 * `_inbox-verification.<domain>` whose text is exactly `inbox-verification=<token>`. A label of its
 * own, beside the domain's other TXT records (SPF, site verifications), so publishing it changes
 * nothing about mail; the prefix in the value says what the text is for when read in a zone file.
 */
export const VERIFICATION_LABEL = '_inbox-verification';
export const VERIFICATION_VALUE_PREFIX = 'inbox-verification=';

/**
 * The demo account's fixed token (admin/seed-demo.ts). The dev DNS zone and the tests' zones publish it
 * for their orderable domains, so the README walkthrough orders them offline. Every other account
 * gets a random token.
 */
export const DEMO_VERIFICATION_TOKEN = 'demo0000verification0000token000';

export interface VerificationRecord {
  /** Where to publish it: `_inbox-verification.<domain>` (a template in GET /v1/domains/verification). */
  readonly name: string;
  readonly type: 'TXT';
  readonly value: string;
}

export const verificationName = (domain: string): string => `${VERIFICATION_LABEL}.${domain}`;
export const verificationValue = (token: string): string => `${VERIFICATION_VALUE_PREFIX}${token}`;

export function verificationRecord(domain: string, token: string): VerificationRecord {
  return { name: verificationName(domain), type: 'TXT', value: verificationValue(token) };
}
