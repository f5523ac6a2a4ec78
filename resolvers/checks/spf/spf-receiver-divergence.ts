import type { SpfResult } from './spf-result.js';
import type { SpfStrictVoidCount } from './spf-tree-types.js';

/**
 * Where widely used receivers evaluate a record differently from RFC 7208 and that changes the
 * outcome. The answer's `divergence` lists one entry per rule that changes something (empty when
 * every receiver agrees), with what those receivers conclude beside ours.
 */
export interface SpfReceiverDivergence {
  /** mx_address_void: the receivers count an mx term's address lookups that find nothing as void lookups. */
  readonly rule: 'mx_address_void';
  readonly receivers: readonly string[];
  /** What they do differently and what it changes, in a sentence with what to change. */
  readonly detail: string;
  /** Void lookups as those receivers count them (RFC 7208's count is the answer's `void_lookup_count`). */
  readonly voidLookupCount: number;
  /** Whether those receivers evaluate the record without a permanent error. */
  readonly valid: boolean;
  /** With `ip`: the result those receivers give that address. */
  readonly result?: SpfResult;
}

const MX_VOID_RECEIVERS = ['pyspf', 'policyd-spf'] as const;

/**
 * pyspf (and policyd-spf, built on it) looks up every exchange of an mx term with its dns() call,
 * which counts an empty answer as a void lookup; RFC 7208 4.6.4 counts only the MX query itself,
 * as do libspf2, mailauth and most others. Returns the divergence when it changes validity or the
 * result for the address.
 */
export function mxAddressVoidDivergence(
  domain: string,
  audit: { readonly valid: boolean; readonly strict: SpfStrictVoidCount },
  evaluation: { readonly ip: string; readonly result: SpfResult; readonly strictStop: string | null } | null,
): SpfReceiverDivergence | null {
  const strictValid = audit.valid && audit.strict.stoppedAt === null;
  const strictResult: SpfResult | undefined = evaluation
    ? evaluation.strictStop !== null && evaluation.result !== 'temperror'
      ? 'permerror'
      : evaluation.result
    : undefined;
  const changesValidity = strictValid !== audit.valid;
  const changesResult = evaluation !== null && strictResult !== evaluation.result;
  if (!changesValidity && !changesResult) return null;
  const where = audit.strict.stoppedAt ?? null;
  const whereText = where ? ` at "${where.term}" in the SPF record of ${where.domain}` : '';
  const outcome =
    changesResult && evaluation
      ? `they give ${evaluation.ip} permerror where RFC 7208 gives ${evaluation.result}`
      : 'they treat the record as a permanent error (permerror) for senders that reach that term';
  return {
    rule: 'mx_address_void',
    receivers: MX_VOID_RECEIVERS,
    detail: `pyspf and policyd-spf count each mail server of an mx term that has no address as a void lookup, so they reach ${audit.strict.voidLookups} void lookups${whereText}, more than ${2}, and ${outcome}. RFC 7208 counts only the MX lookup, as most receivers do. Give every MX host an address, or replace the mx term with ip4/ip6 ranges.`,
    voidLookupCount: audit.strict.voidLookups,
    valid: strictValid,
    ...(strictResult !== undefined ? { result: strictResult } : {}),
  };
}
