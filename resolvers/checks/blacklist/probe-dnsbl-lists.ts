import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import type { BlacklistConfig } from '../../../config/settings.js';
import { DNSBL_LISTS } from './dnsbl-lists.js';
import type { DnsblProbe } from './dnsbl-liveness-board.js';
import { dnsblLiveness, zoneDigest, zoneFor } from './query-dnsbl.js';

/**
 * Every list's RFC 5782 test points, asked at once: what the background job stores for the requests
 * to share. The reasons name the zone as shown, never the Spamhaus DQS key.
 */
export async function probeDnsblLists(dns: DnsLookup, config: BlacklistConfig, now: Date): Promise<DnsblProbe[]> {
  return Promise.all(
    DNSBL_LISTS.map(async (list): Promise<DnsblProbe> => {
      const zone = zoneFor(list, config);
      const { alive, reason } = await dnsblLiveness(dns, list, config);
      return {
        list_id: list.id,
        zone: zone.shown,
        zone_digest: zoneDigest(zone.query),
        alive,
        reason: reason && config.spamhausDqsKey ? reason.replaceAll(config.spamhausDqsKey, '<key>') : reason,
        probed_at: now,
      };
    }),
  );
}
