import { lockDomainByName, setBuildStateRow } from '../db/domains.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { recordEvent } from '../resolvers/events/record-event.js';

import type { BuildState } from '../resolvers/domains/setup/setup-record.js';

/**
 * The operator's hand on a build: `live` and `needs_attention` record their event (sent to webhooks
 * and alert recipients by the next sweep); `queued` has the next sweep build the domain again.
 */
export async function setBuildState(
  db: Kysely<Database>,
  domainName: string,
  state: BuildState,
  reason: string | null,
): Promise<{ domain: string; from: string; to: string; event_id: string | null } | { error: string }> {
  const name = domainName.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const domain = await lockDomainByName(trx, name);
    if (!domain) return { error: `No order has the domain ${name}.` };
    await setBuildStateRow(trx, domain.id, { build_state: state, build_reason: reason, ...(state === 'live' && { built_at: new Date() }) });
    let eventId: string | null = null;
    if (domain.build_state !== state && (state === 'live' || state === 'needs_attention')) {
      eventId = await recordEvent(trx, domain.account_id, state === 'live' ? 'domain.live' : 'domain.needs_attention', {
        domain: domain.domain,
        order_id: domain.order_id,
        build_state: state,
        reason,
        problems: [],
        set_by: 'operator',
      });
    }
    return { domain: domain.domain, from: domain.build_state, to: state, event_id: eventId };
  });
}
