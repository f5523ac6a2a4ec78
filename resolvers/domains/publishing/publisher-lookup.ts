import type { DnsAnswer, DnsLookup, DnsRecord as AnswerRecord, DnsRecordType } from '../../checks/dns/dns-types.js';
import { normaliseQuestionName } from '../../checks/dns/create-dns-lookup.js';
import { withinZone } from '../../checks/dns/zone-lookup.js';
import type { DnsPublisher, DnsRecord } from './dns-publisher.js';

/** The types a publisher reads; anything else in the zone is asked of `base`. */
const READ_TYPES = new Set<DnsRecordType>(['A', 'AAAA', 'MX', 'TXT', 'CNAME']);

function toAnswerRecord(type: DnsRecordType, record: DnsRecord): AnswerRecord[] {
  switch (type) {
    case 'MX':
      return [{ data: { preference: record.priority ?? 0, exchange: record.value }, ttl: record.ttl }];
    case 'TXT':
      return [{ data: [record.value], ttl: record.ttl }];
    case 'A':
    case 'AAAA':
    case 'CNAME':
      return [{ data: record.value, ttl: record.ttl }];
    default:
      return [];
  }
}

/**
 * A lookup that reads the domain's own names through a publisher: for an RFC 2136 connection the
 * connection's server asked with TSIG-signed queries, for Cloudflare its API; every other name (an
 * SPF include, an MX host) through `base`. So a publish (and its dry run) judges what the zone it
 * will write holds now, and a key or server the publish would fail with fails the read the same
 * way: the publisher's ApiError is thrown, not turned into an answer.
 */
export function createPublisherLookup(base: DnsLookup, publisher: DnsPublisher, zone: string): DnsLookup {
  const answers = new Map<string, Promise<DnsAnswer>>();
  async function read<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
    const records = (await publisher.readRecords(name, type)).flatMap((r) => toAnswerRecord(type, r)) as AnswerRecord<T>[];
    if (records.length === 0) return { ok: false, name, type, failure: 'nodata', detail: `${name} has no ${type} record` };
    return { ok: true, name, type, records };
  }
  return {
    lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
      if (!withinZone(name, zone) || !READ_TYPES.has(type)) return base.lookup(name, type);
      const key = `${normaliseQuestionName(name)}|${type}`;
      let answer = answers.get(key);
      if (!answer) {
        answer = read(normaliseQuestionName(name), type);
        answers.set(key, answer);
      }
      return answer as Promise<DnsAnswer<T>>;
    },
    get questionsAsked() {
      return base.questionsAsked;
    },
    ...(base.askServer && { askServer: base.askServer.bind(base) }),
    ...(base.budget && { budget: base.budget }),
    ...(base.signal && { signal: base.signal }),
  };
}
