import { NAMESERVERS_LIMIT, SEGMENT_ESP_LIMIT, URIBL_LIMIT, VERIFY_EMAIL_LIMIT } from '../checks/bulk-input.js';

/**
 * What a check field costs in one request, in check units, whatever door it came through (aliases,
 * batched operations, MCP messages of one POST). The units follow the DNS questions a check asks on
 * a typical domain: the grade runs most checks itself (5), the DKIM scan and the blacklist check ask
 * dozens (2), the rest a handful (1). A bulk check costs 1; its items are bounded by BULK_CHECKS.
 */
export const CHECK_COSTS: Readonly<Record<string, number>> = {
  checkDeliverability: 5,
  checkDkim: 2,
  checkBlacklist: 2,
  checkSpf: 1,
  checkDmarc: 1,
  checkBimi: 1,
  checkMtaSts: 1,
  checkDns: 1,
  checkCname: 1,
  checkDomainExpiry: 1,
  checkProviderDomain: 1,
  checkUribl: 1,
  checkNameservers: 1,
  verifyEmail: 1,
  segmentEsp: 1,
};

/**
 * Check units one request may spend: the checks page (the grade and ten checks, 17 units) fits; 40
 * aliases of one check do not. One REST call is one check; a GraphQL request may ask several.
 */
export const MAX_CHECK_COST = 20;

/** The prices in words, read from CHECK_COSTS, for the sentences that refuse a request. */
export function describeCheckCosts(): string {
  const kebab = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const dearer = Object.entries(CHECK_COSTS)
    .filter(([, cost]) => cost > 1)
    .sort((a, b) => b[1] - a[1]);
  return `${dearer.map(([field, cost]) => `${kebab(field)} costs ${cost}`).join(', ')}, any other check 1`;
}

export interface BulkCheck {
  /** The argument holding the list. */
  readonly param: string;
  /** What an item is, for sentences. */
  readonly items: string;
  /** Items one request may carry in all: one REST call's limit (bulk-input.ts). */
  readonly limit: number;
  /**
   * DNS questions the request's budget grows by per item, so a full call completes: a verify-email
   * address's domain asks MX then its hosts' A (AAAA when there is no A), or A and AAAA for an implicit
   * MX; segment-esp adds the SPF TXT; nameservers asks NS of the name and of its registered domain;
   * a URIBL domain asks each of the six domain lists, and a timed-out question is asked twice.
   */
  readonly questionsPerItem: number;
}

export const BULK_CHECKS: Readonly<Record<string, BulkCheck>> = {
  verifyEmail: { param: 'emails', items: 'addresses', limit: VERIFY_EMAIL_LIMIT, questionsPerItem: 4 },
  segmentEsp: { param: 'domains', items: 'domains', limit: SEGMENT_ESP_LIMIT, questionsPerItem: 6 },
  checkNameservers: { param: 'domains', items: 'domains', limit: NAMESERVERS_LIMIT, questionsPerItem: 4 },
  checkUribl: { param: 'domains', items: 'domains', limit: URIBL_LIMIT, questionsPerItem: 14 },
};
