import type { Answer, DecodedPacket } from 'dns-packet';
import type { ExtendedDnsError } from './dns-types.js';

/** The EDNS option code of an Extended DNS Error (RFC 8914 section 2). */
export const EDE_OPTION_CODE = 15;

/**
 * RFC 8914 section 4 (the IANA registry's codes 0-24), in words an operator reads in a failure
 * sentence: "the DNSSEC signature has expired" rather than "Signature Expired".
 */
const MEANINGS: readonly string[] = [
  'the resolver reported an error it did not classify', // 0 Other Error
  'the zone is signed with a DNSKEY algorithm the resolver does not support', // 1
  "the zone's DS record uses a digest type the resolver does not support", // 2
  'the answer is stale: the resolver served it from cache after its lifetime', // 3
  "the answer was forged by the resolver (a policy answer, not the zone's)", // 4
  'DNSSEC validation could not reach a verdict (indeterminate)', // 5
  'the DNSSEC signatures do not validate (bogus)', // 6
  'the DNSSEC signature has expired', // 7
  'the DNSSEC signature is not valid yet', // 8
  "the zone's DNSKEY record is missing, so its signatures cannot be checked", // 9
  'the DNSSEC signatures (RRSIGs) are missing', // 10
  'no DNSKEY of the zone has the zone-key bit set', // 11
  'the DNSSEC proof of non-existence (NSEC/NSEC3) is missing', // 12
  'the resolver returned an error it had cached', // 13
  'the resolver is not ready yet', // 14
  'the resolver blocks this name', // 15
  'the resolver censors this name (a legal requirement)', // 16
  "the resolver filters this name at its user's request", // 17
  'the resolver does not serve this client', // 18
  'the NXDOMAIN answer is stale, served from cache', // 19
  'the server is not authoritative for this name and does not recurse', // 20
  'the operation is not supported', // 21
  "the resolver could reach none of the zone's authoritative servers", // 22
  'a network error prevented the resolver from getting an answer', // 23
  "the zone's data is invalid", // 24
];

/**
 * Codes that are a DNSSEC validation verdict (1, 2, 5-12): a SERVFAIL carrying one says the same on
 * every try, so it is not asked again.
 */
const DNSSEC_FAILURE_CODES: ReadonlySet<number> = new Set([1, 2, 5, 6, 7, 8, 9, 10, 11, 12]);

/**
 * Of those, the codes that say the data failed validation (RFC 4035 4.3 "Bogus"): 6 DNSSEC Bogus,
 * 7 Signature Expired, 8 Signature Not Yet Valid, 9 DNSKEY Missing, 10 RRSIGs Missing, 11 No Zone
 * Key Bit Set, 12 NSEC Missing. 5 is "Indeterminate" by its own name; 1 and 2 (an algorithm or
 * digest the resolver does not support) make the zone insecure to it (RFC 4035 5.2), so a SERVFAIL
 * beside them failed for another reason: both are indeterminate, not bogus.
 */
const BOGUS_CODES: ReadonlySet<number> = new Set([6, 7, 8, 9, 10, 11, 12]);

export function edeMeaning(code: number): string {
  return MEANINGS[code] ?? `the resolver reported Extended DNS Error ${code}`;
}

export function isDnssecFailure(ede: ExtendedDnsError): boolean {
  return DNSSEC_FAILURE_CODES.has(ede.code);
}

export function isBogusCode(ede: ExtendedDnsError): boolean {
  return BOGUS_CODES.has(ede.code);
}

/**
 * The first Extended DNS Error in the reply's OPT record, or null. dns-packet decodes an unknown
 * option as {code, data}; an EDE's data is INFO-CODE (2 octets) then EXTRA-TEXT (UTF-8).
 */
export function readExtendedDnsError(packet: DecodedPacket): ExtendedDnsError | null {
  const opt = (packet.additionals ?? []).find((a: Answer) => a.type === 'OPT') as { options?: { code: number; data?: Buffer }[] } | undefined;
  const option = opt?.options?.find((o) => o.code === EDE_OPTION_CODE);
  if (!option?.data || option.data.length < 2) return null;
  const code = option.data.readUInt16BE(0);
  // EXTRA-TEXT is for humans and comes from a third party: printable text only, bounded.
  const text = option.data
    .subarray(2)
    .toString('utf8')
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '')
    .trim()
    .slice(0, 200);
  return { code, meaning: edeMeaning(code), text: text === '' ? null : text };
}

/** "the DNSSEC signature has expired (Extended DNS Error 7: RRSIG expired on 2026-01-01)". */
export function describeExtendedDnsError(ede: ExtendedDnsError): string {
  return `${ede.meaning} (Extended DNS Error ${ede.code}${ede.text ? `: ${ede.text}` : ''})`;
}
