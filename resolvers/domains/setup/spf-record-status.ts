import type { CheckContext } from '../../checks/check-context.js';
import { analyzeSpfTree } from '../../checks/spf/analyze-spf-tree.js';
import { isSpfRecordText } from '../../checks/spf/parse-spf-record.js';
import { isMissing } from '../../../clients/dns/dns-types.js';
import { MAX_DNS_LOOKUPS, MAX_VOID_LOOKUPS } from '../../checks/spf/spf-result.js';
import { validatedDomainFor } from '../../checks/spf/spf-mechanism-dns.js';
import { createSpfRecordLookup } from '../../checks/spf/spf-record-lookup.js';
import { parseSpfRecordCached } from '../../checks/spf/spf-parse-cache.js';
import { GOOGLE_SPF_INCLUDE } from './google-workspace.js';
import { mergeSpf } from './merge-spf.js';
import { txtTexts } from './record-status.js';
import type { WantedRecord, WantedRecordWithStatus } from './setup-record.js';

/** What counting a record's DNS lookups over its whole tree found. */
type LookupCount =
  | { readonly ok: true; readonly lookups: number; readonly overLimit: boolean; readonly voidNames: readonly string[] | null }
  | { readonly ok: false; readonly failures: readonly string[] };

/**
 * Counts the DNS lookups of `text` as if it were the SPF record of `domain` (RFC 7208 4.6.4), over
 * its whole tree, with our SPF check's own walk: the merged record itself is counted, so what the
 * customer's record costs and what the include costs (Google's is an include chain) are one exact
 * figure. A lookup that failed anywhere in the tree makes the count unknown, never a guess: an
 * include whose record could not be read is not "1 lookup".
 */
async function countSpfLookups(domain: string, text: string, ctx: CheckContext): Promise<LookupCount> {
  const others = createSpfRecordLookup(ctx.dns);
  const record = parseSpfRecordCached(text);
  const ip = { family: 4 as const, bytes: [192, 0, 2, 0], text: '192.0.2.0' };
  const tree = await analyzeSpfTree(domain, {
    dns: ctx.dns,
    record: (d) => (d.toLowerCase() === domain ? Promise.resolve({ kind: 'found', domain, record }) : others(d)),
    macro: { ip, sender: `postmaster@${domain}`, helo: domain, receiver: 'unknown', now: ctx.now, validatedDomain: (d) => validatedDomainFor(ctx.dns, ip, d) },
    hasIp: false,
  });
  if (tree.dnsFailures.length > 0) return { ok: false, failures: tree.dnsFailures };
  // The walk stops where receivers stop: at the 11th lookup or an mx of more than 10 names the record
  // is past the limit whatever the count says; at the 3rd void lookup it is a permerror whose count
  // is not complete, so it is not counted at all (voidNames).
  const stop = tree.stopped?.reason;
  return {
    ok: true,
    lookups: tree.root.lookups,
    overLimit: tree.root.lookups > MAX_DNS_LOOKUPS || stop === 'dns_lookups' || stop === 'mx_names',
    voidNames: stop === 'void_lookups' ? tree.voidNames : null,
  };
}

/**
 * SPF: the wanted value is the domain's own record with Google's include merged in (one record,
 * never a second; two existing ones combined, merge-spf.ts), so the status and the value are worked
 * out together from what is published. The merged record's lookups are counted exactly, or the
 * status is `unknown` (an apply refuses it); past 10 it is a `conflict` an apply refuses too.
 */
export async function spfStatus(record: WantedRecord, ctx: CheckContext): Promise<WantedRecordWithStatus> {
  const answer = await ctx.dns.lookup(record.name, 'TXT');
  if (!answer.ok && !isMissing(answer))
    return {
      ...record,
      status: 'unknown',
      found: [],
      detail: `The TXT lookup for ${record.name} failed (${answer.detail}); this is not a missing record, and nothing is published over a record that could not be read. It is checked again shortly.`,
    };
  // Sorted: the same records give the same answer whatever order DNS answered them in.
  const found = txtTexts(answer).filter(isSpfRecordText).sort();
  const merge = mergeSpf(found, GOOGLE_SPF_INCLUDE);
  if (!merge.ok) {
    const detail = `${record.name} publishes ${found.length} SPF records, which makes SPF fail for every sender (permerror), and they cannot be combined for you: ${merge.reason}.`;
    return { ...record, status: 'conflict', found, detail, refusal: { code: 'spf_conflict', detail } };
  }
  const count = await countSpfLookups(record.name, merge.value, ctx);
  if (!count.ok)
    return {
      ...record,
      value: merge.value,
      status: 'unknown',
      found,
      detail: `A DNS lookup in the SPF record's tree failed (${count.failures.join('; ')}), so its DNS lookups cannot be counted and the merge is not published: it is checked again shortly.`,
    };
  if (count.voidNames) {
    const detail = `The SPF record${found.length > 1 ? 's' : ''} of ${record.name} point${found.length > 1 ? '' : 's'} at names that do not exist or hold no records (${count.voidNames.join(', ')}); past ${MAX_VOID_LOOKUPS} such lookups receivers fail SPF (permerror) and stop counting. Remove those terms, then merge.`;
    return { ...record, value: merge.value, status: 'conflict', found, detail, refusal: { code: 'spf_void_lookups', detail } };
  }
  const lookups = `${count.lookups} of ${MAX_DNS_LOOKUPS} DNS lookups`;
  if (count.overLimit) {
    const detail = merge.unchanged
      ? `The SPF record of ${record.name} includes ${GOOGLE_SPF_INCLUDE} but needs ${count.lookups} DNS lookups; SPF allows ${MAX_DNS_LOOKUPS}, past that receivers fail it. Remove includes you no longer use or flatten some into ip4/ip6 ranges.`
      : `Merging include:${GOOGLE_SPF_INCLUDE} into the SPF record${found.length > 1 ? 's' : ''} of ${record.name} would make ${count.lookups} DNS lookups; SPF allows ${MAX_DNS_LOOKUPS}, past that receivers fail it. Remove includes you no longer use (or flatten some into ip4/ip6 ranges), then merge.`;
    return { ...record, value: merge.value, status: 'conflict', found, detail, refusal: { code: 'spf_lookup_limit', detail } };
  }
  if (found.length > 1)
    return {
      ...record,
      value: merge.value,
      status: 'conflict',
      found,
      detail: `${record.name} publishes ${found.length} SPF records, which makes SPF fail for every sender (permerror): replace them with the one record shown, which keeps every sender of both and includes ${GOOGLE_SPF_INCLUDE} (${lookups}).`,
    };
  if (merge.unchanged) return { ...record, value: merge.value, status: 'verified', found, detail: `The SPF record authorises Google (${lookups}).` };
  if (found.length === 0)
    return { ...record, value: merge.value, status: 'missing', found, detail: `${record.name} publishes no SPF record: publish the TXT record shown.` };
  return {
    ...record,
    value: merge.value,
    status: 'wrong',
    found,
    detail: `The SPF record of ${record.name} does not authorise Google: replace it with the merged record shown (your other senders kept; ${lookups}).`,
  };
}
