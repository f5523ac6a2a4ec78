import { normalizeName, type DnsRecord, type PlannedChange } from '../../../clients/dns-publishing/dns-publisher.js';
import { refuseBesideAlias, refuseLosingCustomerRecords } from './keeps-customer-records.js';

/**
 * The changes that make `existing` serve `wanted`, and nothing else:
 *
 * - Sets (MX, A, AAAA) at a name are replaced whole when they differ from the wanted set: a domain's
 *   mail goes to one provider, so another provider's MX is removed with the change that adds ours.
 * - A TXT that starts with a version tag (v=spf1, v=DMARC1, v=DKIM1, v=STSv1, v=TLSRPTv1) replaces
 *   the TXT records at its name with the same tag: the setup computes the merged SPF (the existing
 *   mechanisms plus ours) and the wanted DMARC, so a second SPF record is never added and a wrong
 *   DMARC is replaced. Two SPF records (a conflict) become the one wanted.
 * - Other TXT (proof of control) are added beside what is there. A CNAME replaces another CNAME.
 * - Nothing else is ever removed: a record this plan does not replace stays.
 * - A record already served with the wanted value is left alone whatever its TTL, so applying the
 *   plan twice changes nothing the second time.
 * - Never harm what the customer has (keeps-customer-records.ts): a replaced SPF record whose terms
 *   the new one does not all keep, a replaced DMARC record whose policy would fall or whose report
 *   addresses would be dropped, or any record at a name that holds a CNAME (a TXT beside an alias is
 *   not allowed, and replacing the alias takes away what it points at: a hosted DMARC policy) makes
 *   the plan throw a 409 before anything is written. The setup computes merges that pass; this is
 *   the last line should the zone hold something else than the checks read.
 *
 * Pure: the publisher reads `existing` (every record at each wanted name and type, and a CNAME at
 * the name) and applies the result.
 */
export function planChanges(wanted: readonly DnsRecord[], existing: readonly DnsRecord[]): PlannedChange[] {
  const changes: PlannedChange[] = [];
  const groups = new Map<string, DnsRecord[]>();
  for (const record of wanted.map(normalizeRecord)) {
    const group = groups.get(keyOf(record)) ?? [];
    if (!group.some((r) => sameRecord(r, record))) group.push(record);
    groups.set(keyOf(record), group);
  }
  const present = existing.map(normalizeRecord);
  for (const [key, group] of groups) {
    const here = present.filter((r) => keyOf(r) === key);
    const type = group[0]!.type;
    if (type !== 'CNAME') refuseBesideAlias(group[0]!, present);
    if (SET_TYPES.has(type)) changes.push(...planSet(group, here));
    else if (type === 'CNAME') changes.push(...planSet(group.slice(0, 1), here));
    else if (type === 'TXT') for (const record of group) changes.push(...planTxt(record, here));
    else for (const record of group) if (!here.some((r) => sameRecord(r, record))) changes.push({ action: 'add', record });
  }
  return changes;
}

/** Types whose records at one name form one set, replaced whole. */
const SET_TYPES = new Set(['MX', 'A', 'AAAA']);

function planSet(group: readonly DnsRecord[], here: readonly DnsRecord[]): PlannedChange[] {
  const same = group.length === here.length && group.every((w) => here.some((h) => sameRecord(h, w)));
  if (same) return [];
  const [first, ...rest] = group;
  if (here.length === 0 || first === undefined) return group.map((record) => ({ action: 'add', record }));
  return [{ action: 'replace', record: first, replaces: inOrder(here) }, ...rest.map((record): PlannedChange => ({ action: 'add', record }))];
}

function planTxt(record: DnsRecord, here: readonly DnsRecord[]): PlannedChange[] {
  const tag = versionTag(record.value);
  if (tag === null) return here.some((r) => r.value === record.value) ? [] : [{ action: 'add', record }];
  const tagged = here.filter((r) => versionTag(r.value) === tag);
  if (tagged.length === 1 && tagged[0]!.value === record.value) return [];
  if (tagged.length === 0) return [{ action: 'add', record }];
  refuseLosingCustomerRecords(tag, record, tagged);
  return [{ action: 'replace', record, replaces: inOrder(tagged) }];
}

/** Servers rotate the order of a set's records (BIND's rrset-order): a plan lists them in one order, so equal plans compare equal. */
function inOrder(records: readonly DnsRecord[]): DnsRecord[] {
  return [...records].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/** "v=spf1", "v=dmarc1", ... in lower case, or null for a TXT without one. */
export function versionTag(value: string): string | null {
  const match = /^\s*v\s*=\s*([A-Za-z0-9]+)(?=$|[\s;])/.exec(value);
  return match ? `v=${match[1]!.toLowerCase()}` : null;
}

/** Names in lower case without the trailing dot; host names in values (MX, CNAME) likewise. */
export function normalizeRecord(record: DnsRecord): DnsRecord {
  const type = record.type.toUpperCase();
  const hostValue = type === 'MX' || type === 'CNAME' || type === 'NS';
  return {
    type,
    name: normalizeName(record.name),
    value: hostValue ? normalizeName(record.value) : type === 'AAAA' ? record.value.toLowerCase() : record.value,
    ttl: record.ttl,
    ...(record.priority !== undefined && { priority: record.priority }),
  };
}

function keyOf(record: DnsRecord): string {
  return `${record.name}|${record.type}`;
}

/** Same name, type, value and (for MX) priority; the TTL does not count. */
export function sameRecord(a: DnsRecord, b: DnsRecord): boolean {
  return a.name === b.name && a.type === b.type && a.value === b.value && (a.type !== 'MX' || (a.priority ?? 0) === (b.priority ?? 0));
}
