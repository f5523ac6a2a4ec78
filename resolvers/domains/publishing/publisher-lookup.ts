import type { Answer } from 'dns-packet';
import { DomainError } from '../../domain-error.js';
import type { DnsAnswer, DnsFailureKind, DnsLookup, DnsRecordType } from '../../../clients/dns/dns-types.js';
import { normaliseQuestionName } from '../../../clients/dns/create-dns-lookup.js';
import { answerFromReply } from '../../../clients/dns/answer-from-reply.js';
import { withinZone } from '../../../clients/dns/zone-lookup.js';
import type { DnsPublisher, DnsRecord } from '../../../clients/dns-publishing/dns-publisher.js';

/** The types a publisher reads; anything else in the zone is asked of `base`. */
const READ_TYPES = new Set<DnsRecordType>(['A', 'AAAA', 'MX', 'TXT', 'CNAME']);

/** A publisher's record as a reply's answer record, so the engine reads it as it reads any reply. */
function asAnswer(record: DnsRecord): Answer[] {
  const base = { name: record.name, ttl: record.ttl, class: 'IN' as const };
  switch (record.type) {
    case 'MX':
      return [{ ...base, type: 'MX', data: { preference: record.priority ?? 0, exchange: record.value } }];
    case 'TXT':
      return [{ ...base, type: 'TXT', data: [record.value] }];
    case 'A':
    case 'AAAA':
    case 'CNAME':
      return [{ ...base, type: record.type, data: record.value }];
    default:
      return [];
  }
}

/**
 * The publisher errors that are a failed read of one name (the server failed or refused the question,
 * or gave no answer in time; Cloudflare's API failed or did not answer), by the kind of lookup
 * failure they are. They become a failed answer, so the record is `unknown` and the apply refuses
 * with 503 dns_lookup_failed naming it (refuse-unsafe-publish.ts): no write from an unknown read.
 * A key refused or a zone not served stays the publisher's own error, as the write would give it.
 */
function failedRead(error: unknown): { kind: DnsFailureKind; detail: string } | null {
  if (!(error instanceof DomainError)) return null;
  switch (error.code) {
    case 'dns_lookup_failed':
      return { kind: error.detail.includes('(REFUSED)') ? 'refused' : 'servfail', detail: error.detail };
    case 'dns_server_unreachable':
    case 'dns_provider_unreachable':
      return { kind: 'timeout', detail: error.detail.replace(/ Nothing was changed\.$/, '') };
    case 'dns_provider_failed':
      return { kind: 'servfail', detail: error.detail.replace(/ Nothing was changed\.$/, '') };
    default:
      return null;
  }
}

/**
 * A lookup that reads the domain's own names through a publisher: for an RFC 2136 connection the
 * connection's server asked with TSIG-signed queries, for Cloudflare its API; every other name (an
 * SPF include, an MX host) through `base`. So a publish (and its dry run) judges what the zone it
 * will write holds now, and a key or server the publish would fail with fails the read the same
 * way: the publisher's DomainError is thrown, not turned into an answer, except a failed read
 * (failedRead), which is a failed lookup. Each name and type is read once per lookup.
 */
export function createPublisherLookup(base: DnsLookup, publisher: DnsPublisher, zone: string): DnsLookup {
  const read = new Map<string, Promise<DnsRecord[]>>();
  async function fromPublisher<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
    const key = `${name}|${type}`;
    let records = read.get(key);
    if (!records) {
      records = publisher.readRecords(name, type);
      read.set(key, records);
    }
    let served: DnsRecord[];
    try {
      served = await records;
    } catch (error) {
      const failed = failedRead(error);
      if (!failed) throw error;
      return { ok: false, name, type, failure: failed.kind, detail: failed.detail };
    }
    const answers = served.flatMap(asAnswer);
    const flags = { flag_qr: true, flag_aa: true, flag_tc: false, flag_rd: false, flag_ra: false, flag_z: false, flag_ad: false, flag_cd: false };
    return answerFromReply(name, type, { type: 'response', id: 0, flags: 0, ...flags, questions: [], answers }, { recursionDesired: false });
  }
  return {
    lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
      if (!withinZone(name, zone) || !READ_TYPES.has(type)) return base.lookup(name, type);
      return fromPublisher(normaliseQuestionName(name), type);
    },
    get questionsAsked() {
      return base.questionsAsked;
    },
    ...(base.askServer && { askServer: base.askServer.bind(base) }),
    ...(base.budget && { budget: base.budget }),
    ...(base.signal && { signal: base.signal }),
  };
}
