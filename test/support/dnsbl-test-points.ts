import type { BlacklistConfig } from '../../config/settings.js';
import { DNSBL_LISTS } from '../../resolvers/checks/blacklist/dnsbl-lists.js';
import type { DnsblList } from '../../resolvers/checks/blacklist/dnsbl-lists.js';
import { zoneFor } from '../../resolvers/checks/blacklist/query-dnsbl.js';
import type { ZoneRecord } from './dns-server.js';

/**
 * The RFC 5782 test point every live list answers (127.0.0.2 for an IP list, "test" or the list's own
 * test domain for a domain list), for fixtures that stand in for live blocklists. Lists named in
 * `except` are left out, so they read as dead zones.
 */
export function dnsblTestPoints(config: BlacklistConfig = { spamhausDqsKey: null }, except: readonly string[] = []): ZoneRecord[] {
  return DNSBL_LISTS.filter((l) => !except.includes(l.id)).map((list: DnsblList): ZoneRecord => {
    const zone = zoneFor(list, config).query;
    const name = list.kind === 'ip' ? `2.0.0.127.${zone}` : `${list.test_domain ?? 'test'}.${zone}`;
    return { name, type: 'A', data: list.id === 'spamhaus_dbl' ? '127.0.1.2' : '127.0.0.2' };
  });
}
