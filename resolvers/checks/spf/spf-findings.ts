import type { Finding, Severity } from '../check-result.js';

/**
 * Every finding code the SPF check emits, with its severity. Codes are stable (clients match on
 * them); the messages say what to change.
 */
export const SPF_FINDING_SEVERITY = {
  /** No TXT record starting with v=spf1 at the domain. */
  spf_record_missing: 'error',
  /** More than one SPF record at a domain (the domain itself or an include target): permerror (4.5). */
  multiple_spf_records: 'error',
  /** A term that does not parse; points at the term (4.6, 12). */
  syntax_error: 'error',
  /** redirect= or exp= appears twice in one record: permerror (6). */
  duplicate_modifier: 'error',
  /** More than 10 DNS-querying terms across the tree: permerror (4.6.4). */
  too_many_dns_lookups: 'error',
  /** More than 2 lookups answering NXDOMAIN or no data: permerror (4.6.4). */
  too_many_void_lookups: 'error',
  /** One or two void lookups: allowed, but a sign of stale terms. */
  void_lookups: 'warning',
  /** "+all" (or a bare "all") authorises everyone. */
  plus_all: 'error',
  /** "?all": unlisted senders are neutral. */
  neutral_all: 'warning',
  /** Neither all nor redirect at the end of the policy: default neutral (4.7). */
  no_all_mechanism: 'warning',
  /** Mechanisms after all are never evaluated. */
  terms_after_all: 'warning',
  /** redirect= is ignored because the record has all (6.1). */
  redirect_ignored: 'info',
  /** ptr is deprecated (5.5). */
  ptr_mechanism: 'warning',
  /** A modifier SPF does not define; ignored by receivers (6). */
  unknown_modifier: 'info',
  /** include: target publishes no SPF record: permerror (5.2). */
  include_without_spf: 'error',
  /** redirect= target publishes no SPF record: permerror (6.1). */
  redirect_without_spf: 'error',
  /** An include/redirect chain comes back to a domain already on the path. */
  spf_loop: 'error',
  /** An mx mechanism whose domain has more than 10 MX records: permerror (4.6.4). */
  mx_too_many_records: 'error',
  /** The record is long enough that the DNS answer may not fit in 512 octets (3.4). */
  record_too_long: 'warning',
  /** A DNS lookup failed (timeout, SERVFAIL, REFUSED, malformed): the check is an error, result temperror. */
  dns_lookup_failed: 'error',
  /** The audit stopped where receivers stop (11th lookup, 3rd void lookup, mx of more than 10 names); says where. */
  expansion_stopped: 'info',
  /** Widely used receivers (pyspf, policyd-spf) reach a different outcome than RFC 7208; the answer's divergence says which. */
  receiver_divergence: 'warning',
  /** With ip: the evaluation ended in permerror for a reason the tree did not already report. */
  spf_permerror: 'error',
  /** With ip: the result for that address. */
  ip_authorized: 'info',
  ip_not_authorized: 'error',
  ip_softfail: 'warning',
  ip_neutral: 'warning',
} as const satisfies Record<string, Severity>;

export type SpfFindingCode = keyof typeof SPF_FINDING_SEVERITY;

export function spfFinding(code: SpfFindingCode, message: string): Finding {
  return { severity: SPF_FINDING_SEVERITY[code], code, message };
}
