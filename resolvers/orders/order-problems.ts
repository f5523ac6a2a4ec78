import type { VerificationRecord } from './verification-record.js';

/** One issue with one domain of an order. Errors refuse the order; warnings are shown and let it through. */
export interface OrderIssue {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  /** Where in the body, e.g. domains[2].mailboxes[0].local_part. */
  readonly field: string;
  readonly message: string;
  /** domain_not_verified only: the TXT record that proves the domain is the account's. */
  readonly record?: VerificationRecord;
}

/** Issues grouped by domain (SPEC 4.2 rule 1), in the order the domains were sent. */
export interface DomainProblems {
  readonly domain: string;
  /** Position of the domain in the request's `domains`. */
  readonly index: number;
  readonly issues: readonly OrderIssue[];
}

export function groupProblems(domains: readonly string[], issues: ReadonlyMap<number, OrderIssue[]>, keep: (issue: OrderIssue) => boolean): DomainProblems[] {
  const groups: DomainProblems[] = [];
  domains.forEach((domain, index) => {
    const kept = (issues.get(index) ?? []).filter(keep);
    if (kept.length) groups.push({ domain, index, issues: kept });
  });
  return groups;
}
