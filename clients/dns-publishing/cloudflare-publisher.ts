import Cloudflare, { APIConnectionError, APIError, AuthenticationError, PermissionDeniedError } from 'cloudflare';
import { DnsPublishingError } from './publishing-error.js';
import { normalizeName, type DnsPublisher, type DnsRecord, type PlannedChange } from './dns-publisher.js';

/** Cloudflare's own address; CLOUDFLARE_API_BASE points the SDK at another (the tests' fake). */
export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4';

export interface CloudflareOptions {
  readonly apiBase: string | null;
  readonly timeoutMs: number;
}

type BatchParams = Parameters<Cloudflare['dns']['records']['batch']>[0];
type PostRecord = NonNullable<BatchParams['posts']>[number];
const TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] as const;
type CloudflareType = (typeof TYPES)[number];

/**
 * Publishes through Cloudflare's official SDK with an API token (Zone:DNS:Edit). The zone is found by
 * name (the record's name, then each parent); each zone's changes go in one batch request, which
 * Cloudflare runs in one database transaction: deletes of the replaced records, then the new ones.
 * Every credential is passed explicitly and SDK logging is off, so neither CLOUDFLARE_* variables of
 * this process nor a debug log level can mix our operator's settings into a customer's call.
 */
export function createCloudflarePublisher(token: string, options: CloudflareOptions): DnsPublisher {
  const client = new Cloudflare({
    apiToken: token,
    apiKey: null,
    apiEmail: null,
    userServiceKey: null,
    baseURL: options.apiBase ?? CLOUDFLARE_API,
    timeout: options.timeoutMs,
    maxRetries: 1,
    logLevel: 'off',
  });
  const zones = new Map<string, { id: string; name: string }>();
  // Cloudflare changes records by id: the ids of what readRecords saw, by name, type and value.
  const ids = new Map<string, string>();

  async function zoneOf(name: string): Promise<{ id: string; name: string }> {
    const labels = name.split('.');
    for (let i = 0; i <= labels.length - 2; i++) {
      const candidate = labels.slice(i).join('.');
      const known = zones.get(candidate);
      if (known) return known;
      const page = await call(() => client.zones.list({ name: candidate }));
      const zone = page.result.find((z) => normalizeName(z.name) === candidate);
      if (zone) {
        const found = { id: zone.id, name: candidate };
        zones.set(candidate, found);
        return found;
      }
    }
    throw new DnsPublishingError(
      'dns_zone_not_served',
      `No Cloudflare zone holding ${name} is reachable with this connection's token: add the zone to the Cloudflare account, or make a token whose zone resources include it.`,
    );
  }

  return {
    async readRecords(name, type) {
      const wanted = normalizeName(name);
      const cfType = cloudflareType(type);
      const zone = await zoneOf(wanted);
      const records: DnsRecord[] = [];
      await call(async () => {
        // Every type at the name: a CNAME there is reported beside the asked type, so nothing is planned over an alias.
        for await (const r of client.dns.records.list({ zone_id: zone.id, name: { exact: wanted }, per_page: 100 })) {
          if (normalizeName(r.name) !== wanted || (r.type !== cfType && r.type !== 'CNAME')) continue;
          const type = r.type === 'CNAME' ? 'CNAME' : cfType;
          const priority = 'priority' in r && typeof r.priority === 'number' ? r.priority : undefined;
          const record: DnsRecord = {
            type,
            name: wanted,
            value: fromContent(type, r.content ?? ''),
            ttl: r.ttl,
            ...(type === 'MX' && { priority: priority ?? 0 }),
          };
          ids.set(idKey(record), r.id);
          records.push(record);
        }
      });
      return records;
    },

    async applyChanges(changes) {
      const byZone = new Map<string, { id: string; changes: PlannedChange[] }>();
      for (const change of changes) {
        const zone = await zoneOf(normalizeName(change.record.name));
        const entry = byZone.get(zone.name) ?? { id: zone.id, changes: [] };
        entry.changes.push(change);
        byZone.set(zone.name, entry);
      }
      for (const [zoneName, { id, changes: list }] of byZone) {
        const deletes = list.flatMap((c) =>
          (c.replaces ?? []).map((r) => {
            const recordId = ids.get(idKey(r));
            if (!recordId) throw new Error(`Replacing a ${r.type} record at ${r.name} that was not read first.`);
            return { id: recordId };
          }),
        );
        const posts = list.map((c) => toPost(c.record));
        await call(() => client.dns.records.batch({ zone_id: id, deletes, posts }), zoneName);
      }
    },

    async rewriteRecords(remove, add) {
      const byZone = new Map<string, { id: string; deletes: { id: string }[]; posts: PostRecord[] }>();
      const entryOf = async (record: DnsRecord) => {
        const zone = await zoneOf(normalizeName(record.name));
        const entry = byZone.get(zone.name) ?? { id: zone.id, deletes: [], posts: [] };
        byZone.set(zone.name, entry);
        return entry;
      };
      for (const r of remove) {
        const recordId = ids.get(idKey(r));
        if (!recordId) throw new Error(`Removing a ${r.type} record at ${r.name} that was not read first.`);
        (await entryOf(r)).deletes.push({ id: recordId });
      }
      for (const r of add) (await entryOf(r)).posts.push(toPost(r));
      for (const [zoneName, { id, deletes, posts }] of byZone) await call(() => client.dns.records.batch({ zone_id: id, deletes, posts }), zoneName);
    },
  };
}

function idKey(record: DnsRecord): string {
  return `${normalizeName(record.name)}|${record.type}|${record.type === 'MX' || record.type === 'CNAME' ? normalizeName(record.value) : record.value}|${record.priority ?? ''}`;
}

function cloudflareType(type: string): CloudflareType {
  const found = TYPES.find((t) => t === type.toUpperCase());
  if (!found) throw new Error(`Publishing ${type} records through Cloudflare is not supported.`);
  return found;
}

/** Cloudflare may answer a TXT's content as quoted strings ("a" "b"); the value is their text joined. */
function fromContent(type: CloudflareType, content: string): string {
  if (type === 'MX' || type === 'CNAME') return normalizeName(content);
  if (type !== 'TXT' || !/^".*"$/s.test(content)) return content;
  return [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1')).join('');
}

function toPost(record: DnsRecord): PostRecord {
  // Cloudflare takes a TTL of 60 to 86400 seconds, or 1 for automatic (kept, so a revert puts an automatic TTL back as it was).
  const ttl = record.ttl === 1 ? 1 : Math.min(86_400, Math.max(60, record.ttl));
  const type = cloudflareType(record.type);
  const name = normalizeName(record.name);
  switch (type) {
    case 'MX':
      return { type, name, ttl, content: normalizeName(record.value), priority: record.priority ?? 0 };
    case 'CNAME':
      return { type, name, ttl, content: normalizeName(record.value), proxied: false };
    case 'A':
    case 'AAAA':
      return { type, name, ttl, content: record.value, proxied: false };
    case 'TXT':
      return { type, name, ttl, content: record.value };
  }
}

/** Cloudflare's refusals as our errors: the token's, a refused change, or the API out of reach. */
async function call<T>(run: () => Promise<T>, zone?: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError)
      throw new DnsPublishingError(
        'cloudflare_token_refused',
        `Cloudflare refused the connection's API token (${error.status}): make a token with the Zone > DNS > Edit permission on the zone, and create the connection again with it. Nothing was changed.`,
      );
    if (error instanceof APIConnectionError)
      throw new DnsPublishingError('dns_provider_unreachable', "Cloudflare's API did not answer; try again in a minute. Nothing was changed.");
    if (error instanceof APIError) {
      const first = error.errors[0];
      const said = first ? ` (${first.code}: ${(first.message ?? '').slice(0, 160)})` : '';
      if (typeof error.status === 'number' && error.status >= 400 && error.status < 500)
        throw new DnsPublishingError('dns_update_refused', `Cloudflare refused the change${zone ? ` to zone ${zone}` : ''}${said}; nothing was changed.`);
      throw new DnsPublishingError('dns_provider_failed', `Cloudflare answered ${error.status ?? 'an error'}${said}; try again later. Nothing was changed.`);
    }
    throw error;
  }
}
