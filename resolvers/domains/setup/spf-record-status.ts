import type { CheckContext } from '../../checks/check-context.js';
import { checkSpf } from '../../checks/spf/check-spf.js';
import { isSpfRecordText } from '../../checks/spf/parse-spf-record.js';
import { isMissing } from '../../checks/dns/dns-types.js';
import { MAX_DNS_LOOKUPS } from '../../checks/spf/spf-result.js';
import { GOOGLE_SPF_INCLUDE } from './google-workspace.js';
import { mergeSpf } from './merge-spf.js';
import { txtTexts } from './record-status.js';
import type { WantedRecord, WantedRecordWithStatus } from './setup-record.js';

/**
 * SPF: the wanted value is the domain's own record with Google's include merged in (one record,
 * never a second), so the status and the value are worked out together from what is published.
 * Lookups are counted by our SPF check: the existing record's tree plus the include's own.
 */
export async function spfStatus(record: WantedRecord, ctx: CheckContext): Promise<WantedRecordWithStatus> {
  const [answer, own, google] = await Promise.all([
    ctx.dns.lookup(record.name, 'TXT'),
    checkSpf({ domain: record.name }, ctx),
    ctx.dns.lookup(GOOGLE_SPF_INCLUDE, 'TXT'),
  ]);
  if (!answer.ok && !isMissing(answer))
    return { ...record, status: 'unknown', found: [], detail: `The TXT lookup for ${record.name} failed (${answer.detail}); this is not a missing record.` };
  // The include costs one lookup, plus the DNS-querying terms of its own record (Google's publishes
  // address ranges only; our SPF check cannot start at an underscore name, so its direct terms count).
  const googleRecord = txtTexts(google).find(isSpfRecordText);
  const includeLookups =
    1 + (googleRecord ? googleRecord.split(/\s+/).filter((t) => /^[-+~?]?(include:|a\b|mx\b|ptr\b|exists:)|^redirect=/i.test(t)).length : 0);
  const found = txtTexts(answer).filter(isSpfRecordText);
  if (found.length === 0) {
    const merge = mergeSpf(null, GOOGLE_SPF_INCLUDE, 0, includeLookups);
    return { ...record, value: merge.value, status: 'missing', found, detail: `${record.name} publishes no SPF record: publish the TXT record shown.` };
  }
  if (found.length > 1) {
    const merge = mergeSpf(found[0]!, GOOGLE_SPF_INCLUDE, own.lookup_count, includeLookups);
    return {
      ...record,
      value: merge.value,
      status: 'conflict',
      found,
      detail: `${record.name} publishes ${found.length} SPF records, which makes SPF fail for every sender (permerror). Merge them into one that includes ${GOOGLE_SPF_INCLUDE}, and delete the others.`,
    };
  }
  if (own.status === 'error')
    return {
      ...record,
      value: found[0]!,
      status: 'unknown',
      found,
      detail: `A lookup failed while counting the SPF record's DNS lookups; it is checked again shortly.`,
    };
  const merge = mergeSpf(found[0]!, GOOGLE_SPF_INCLUDE, own.lookup_count, includeLookups);
  if (merge.overLimit)
    return {
      ...record,
      value: merge.value,
      status: 'conflict',
      found,
      detail: merge.unchanged
        ? `The SPF record of ${record.name} includes ${GOOGLE_SPF_INCLUDE} but needs ${merge.lookups} DNS lookups; SPF allows ${MAX_DNS_LOOKUPS}, past that receivers fail it. Remove includes you no longer use or flatten some into ip4/ip6 ranges.`
        : `Merging include:${GOOGLE_SPF_INCLUDE} into the SPF record of ${record.name} would make ${merge.lookups} DNS lookups; SPF allows ${MAX_DNS_LOOKUPS}, past that receivers fail it. Remove includes you no longer use (or flatten some into ip4/ip6 ranges), then merge.`,
    };
  if (merge.unchanged)
    return {
      ...record,
      value: merge.value,
      status: 'verified',
      found,
      detail: `The SPF record authorises Google (${merge.lookups} of ${MAX_DNS_LOOKUPS} DNS lookups).`,
    };
  return {
    ...record,
    value: merge.value,
    status: 'wrong',
    found,
    detail: `The SPF record of ${record.name} does not authorise Google: replace it with the merged record shown (your other senders kept; ${merge.lookups} of ${MAX_DNS_LOOKUPS} DNS lookups).`,
  };
}
