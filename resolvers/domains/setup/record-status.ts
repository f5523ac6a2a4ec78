import type { DnsAnswer, DnsLookup } from '../../../clients/dns/dns-types.js';
import { isMissing } from '../../../clients/dns/dns-types.js';
import { permanentFailureAdvice } from '../../checks/dns/failure-advice.js';
import { parseDkimKeyRecord } from '../../checks/dkim/dkim-key-record.js';
import { looksLikeDmarc, parseDmarcRecord } from '../../checks/dmarc/dmarc-record.js';
import { mergeDmarc } from './merge-dmarc.js';
import { GOOGLE_MX, LEGACY_GOOGLE_MX_HOSTS, isGoogleMxHost } from './google-workspace.js';
import type { WantedRecord, WantedRecordWithStatus } from './setup-record.js';

type Judged = Pick<WantedRecordWithStatus, 'status' | 'found' | 'detail'> & { readonly value?: string };

const with_ = (record: WantedRecord, judged: Judged): WantedRecordWithStatus => ({ ...record, ...judged, value: judged.value ?? record.value });

/** A lookup that failed (timeout, SERVFAIL) says nothing about the record: unknown, never missing. */
function failed(record: WantedRecord, answer: DnsAnswer): WantedRecordWithStatus | null {
  if (answer.ok || isMissing(answer)) return null;
  // A failure retrying does not mend (DNSSEC bogus, a refusal, a resolver that does not recurse) says who can fix it.
  const advice = permanentFailureAdvice(answer);
  return with_(record, {
    status: 'unknown',
    found: [],
    detail: `The ${record.type} lookup for ${record.name} failed (${answer.detail}); this is not a missing record. ${advice ?? 'It is checked again shortly.'}`,
  });
}

/** Each TXT record's strings joined, as receivers read them. */
export function txtTexts(answer: DnsAnswer<'TXT'>): string[] {
  return answer.ok ? answer.records.map((r) => r.data.join('')) : [];
}

export async function mxStatus(record: WantedRecord, dns: DnsLookup): Promise<WantedRecordWithStatus> {
  const answer = await dns.lookup(record.name, 'MX');
  const fail = failed(record, answer);
  if (fail) return fail;
  const hosts = answer.ok ? answer.records.map((r) => ({ priority: r.data.preference, host: r.data.exchange.toLowerCase().replace(/\.$/, '') })) : [];
  const found = hosts.map((h) => `${h.priority} ${h.host}`);
  if (hosts.length === 0)
    return with_(record, {
      status: 'missing',
      found,
      detail: `${record.name} has no MX record, so mail to its inboxes cannot arrive: publish MX ${GOOGLE_MX.priority} ${GOOGLE_MX.host}.`,
    });
  const others = hosts.filter((h) => !isGoogleMxHost(h.host));
  if (others.length > 0)
    return with_(record, {
      status: 'conflict',
      found,
      detail: `${record.name} also has MX hosts of another provider (${others.map((h) => h.host).join(', ')}): mail would be split between providers. Remove them and keep only MX ${GOOGLE_MX.priority} ${GOOGLE_MX.host}.`,
    });
  const names = hosts.map((h) => h.host);
  if (names.includes(GOOGLE_MX.host) || names.includes(LEGACY_GOOGLE_MX_HOSTS[0]))
    return with_(record, {
      status: 'verified',
      found,
      detail: names.includes(GOOGLE_MX.host)
        ? `MX ${GOOGLE_MX.priority} ${GOOGLE_MX.host} is published.`
        : `Google's legacy MX hosts are published; they receive mail just as ${GOOGLE_MX.host} does.`,
    });
  return with_(record, {
    status: 'wrong',
    found,
    detail: `${record.name} has only backup Google MX hosts (${names.join(', ')}): publish MX ${GOOGLE_MX.priority} ${GOOGLE_MX.host}.`,
  });
}

export async function dkimStatus(record: WantedRecord, dns: DnsLookup): Promise<WantedRecordWithStatus> {
  const answer = await dns.lookup(record.name, 'TXT');
  const fail = failed(record, answer);
  if (fail) return fail;
  const keys = txtTexts(answer).filter((t) => /^\s*v\s*=\s*DKIM1/i.test(t) || /(^|;)\s*p\s*=/.test(t));
  if (keys.length === 0)
    return with_(record, { status: 'missing', found: [], detail: `No DKIM key is published at ${record.name}: publish the TXT record shown.` });
  if (keys.length > 1)
    return with_(record, {
      status: 'conflict',
      found: keys,
      detail: `${record.name} holds ${keys.length} DKIM key records; receivers may pick either. Keep only the one shown.`,
    });
  const parsed = parseDkimKeyRecord(keys[0]!);
  const wanted = parseDkimKeyRecord(record.value);
  // The key the adapter holds, byte for byte: both p= values decoded, not only compared as text.
  if (parsed.ok && wanted.ok && parsed.record.p !== '' && sameKeyBytes(parsed.record.p, wanted.record.p))
    return with_(record, { status: 'verified', found: keys, detail: `The DKIM key is published at ${record.name}.` });
  return with_(record, {
    status: 'wrong',
    found: keys,
    detail: parsed.ok
      ? `${record.name} publishes another key than the one your mail is signed with: replace it with the TXT record shown.`
      : `The DKIM record at ${record.name} cannot be read (${parsed.message}): replace it with the TXT record shown.`,
  });
}

function sameKeyBytes(published: string, wanted: string): boolean {
  const bytes = (p: string) => Buffer.from(p.replace(/\s+/g, ''), 'base64');
  return bytes(published).equals(bytes(wanted));
}

export async function dmarcStatus(record: WantedRecord, dns: DnsLookup, reportAddress: string): Promise<WantedRecordWithStatus> {
  const answer = await dns.lookup(record.name, 'TXT');
  const fail = failed(record, answer);
  if (fail) return fail;
  const found = txtTexts(answer).filter(looksLikeDmarc);
  if (answer.canonical && answer.canonical !== record.name) return hostedDmarcStatus(record, answer.canonical, found, reportAddress);
  if (found.length === 0) return with_(record, { status: 'missing', found, detail: `No DMARC record at ${record.name}: publish the TXT record shown.` });
  if (found.length > 1) {
    const detail = `${record.name} holds ${found.length} DMARC records, so receivers ignore them all (RFC 7489 6.6.3). Keep only one (with every rua= address you use and mailto:${reportAddress}); which policy stays is yours to choose, so it is not published for you.`;
    return { ...with_(record, { status: 'conflict', found, detail }), refusal: { code: 'dmarc_conflict', detail } };
  }
  const parsed = parseDmarcRecord(found[0]!);
  if (!parsed.ok) {
    const detail = `The DMARC record at ${record.name} is invalid (${parsed.errors[0]?.message ?? 'unreadable'}): correct it and add mailto:${reportAddress} to its rua=. It is not replaced for you, since its policy may be stricter than ours.`;
    return { ...with_(record, { status: 'wrong', found, detail }), refusal: { code: 'dmarc_invalid', detail } };
  }
  const reports = parsed.record.rua.some((u) => u.address.toLowerCase() === `mailto:${reportAddress}`);
  if (!reports)
    return with_(record, {
      status: 'wrong',
      value: mergeDmarc(found[0]!, reportAddress),
      found,
      detail: `The DMARC record at ${record.name} does not send aggregate reports to mailto:${reportAddress}, so we cannot watch who sends as the domain: add it to rua=, as the record shown does (your policy p=${parsed.record.p} and every other tag and address kept).`,
    });
  // Any policy of the ramp (none, quarantine, reject) with our reports is what we want.
  return with_(record, { status: 'verified', value: found[0]!, found, detail: `DMARC p=${parsed.record.p} with reports to ${reportAddress} is published.` });
}

/**
 * `_dmarc` is an alias (CNAME) of a policy hosted elsewhere, often by a DMARC reporting service: a
 * TXT cannot sit beside a CNAME, and replacing the alias would take the policy from its host, so it
 * is never written here. Verified through the target when the hosted record already sends us reports.
 */
function hostedDmarcStatus(record: WantedRecord, target: string, found: readonly string[], reportAddress: string): WantedRecordWithStatus {
  const parsed = found.length === 1 ? parseDmarcRecord(found[0]!) : null;
  if (parsed?.ok && parsed.record.rua.some((u) => u.address.toLowerCase() === `mailto:${reportAddress}`))
    return with_(record, {
      status: 'verified',
      value: found[0]!,
      found: [`CNAME ${target}`, ...found],
      detail: `${record.name} is an alias of ${target}, whose DMARC policy p=${parsed.record.p} sends reports to ${reportAddress}.`,
    });
  return with_(record, {
    status: 'delegated',
    value: parsed?.ok ? mergeDmarc(found[0]!, reportAddress) : record.value,
    found: [`CNAME ${target}`, ...found],
    detail: `${record.name} is an alias (CNAME) of ${target}: your DMARC policy is hosted there, so it is never overwritten here. Add mailto:${reportAddress} to its rua= at ${target} (or with the service that hosts it), as the record shown does.`,
  });
}

export async function forwardingStatus(record: WantedRecord, dns: DnsLookup): Promise<WantedRecordWithStatus> {
  const answer = await dns.lookup(record.name, 'A');
  const fail = failed(record, answer);
  if (fail) return fail;
  if (answer.canonical && answer.canonical !== record.name)
    return with_(record, {
      status: 'conflict',
      found: [`CNAME ${answer.canonical}`],
      detail: `${record.name} is an alias (CNAME) of ${answer.canonical}; an apex alias breaks its MX and TXT records. Remove it and publish A ${record.value}.`,
    });
  const addresses = answer.ok ? answer.records.map((r) => r.data) : [];
  if (addresses.length === 0)
    return with_(record, {
      status: 'missing',
      found: [],
      detail: `${record.name} has no web address, so visitors are not forwarded: publish A ${record.value}.`,
    });
  if (addresses.length === 1 && addresses[0] === record.value)
    return with_(record, { status: 'verified', found: addresses, detail: `${record.name} points at the forwarding service.` });
  return with_(record, {
    status: 'wrong',
    found: addresses,
    detail: addresses.includes(record.value)
      ? `${record.name} has other addresses beside ${record.value}, so some visitors are not forwarded: remove ${addresses.filter((a) => a !== record.value).join(', ')}.`
      : `${record.name} points at ${addresses.join(', ')}, not the forwarding service: replace it with A ${record.value}.`,
  });
}

/** A TXT record whose exact text is wanted (the proof of control, TLS-RPT); `prefix` tells ours from a wrong one. */
export async function exactTxtStatus(record: WantedRecord, dns: DnsLookup, prefix: RegExp): Promise<WantedRecordWithStatus> {
  const answer = await dns.lookup(record.name, 'TXT');
  const fail = failed(record, answer);
  if (fail) return fail;
  const texts = txtTexts(answer);
  if (texts.includes(record.value)) return with_(record, { status: 'verified', found: [record.value], detail: `${record.name} holds the record shown.` });
  const kin = texts.filter((t) => prefix.test(t));
  if (kin.length === 0) return with_(record, { status: 'missing', found: [], detail: `Nothing is published at ${record.name}: publish the TXT record shown.` });
  return with_(record, { status: 'wrong', found: kin, detail: `${record.name} holds another value than the one shown: replace it.` });
}
