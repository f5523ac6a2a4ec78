import type { DnsLookup } from '../../clients/dns/dns-types.js';
import { isMissing } from '../../clients/dns/dns-types.js';

/** The domain's DMARC record as read: its text, none published, or a read that failed (never guessed). */
export type DmarcRecordRead =
  | { readonly ok: true; readonly record: string | null; readonly ttl: number | null }
  | { readonly ok: false; readonly problem: string };

/**
 * Reads `_dmarc.<domain>` TXT through `dns` (the zone's own servers, or a connection's). No record is
 * `record: null`; two DMARC records (receivers then apply none, RFC 7489 6.6.3) and any failed
 * lookup are failures, since a step is only ever planned from a record read for certain.
 */
export async function readDmarcRecord(dns: DnsLookup, domain: string, readFrom: string): Promise<DmarcRecordRead> {
  const name = `_dmarc.${domain}`;
  const answer = await dns.lookup(name, 'TXT');
  if (!answer.ok) {
    if (isMissing(answer)) return { ok: true, record: null, ttl: null };
    return { ok: false, problem: `Reading TXT at ${name} from ${readFrom} failed (${answer.detail}), so the DMARC policy now in force is not known.` };
  }
  const dmarc = answer.records.filter((r) => /^\s*v\s*=\s*DMARC1\s*(;|$)/i.test(r.data.join('')));
  if (dmarc.length > 1)
    return { ok: false, problem: `${name} holds ${dmarc.length} DMARC records, so receivers apply none (RFC 7489 6.6.3); keep one and read the ramp again.` };
  const only = dmarc[0];
  return only ? { ok: true, record: only.data.join(''), ttl: only.ttl } : { ok: true, record: null, ttl: null };
}
