import { hasDomainDkimKey } from '../db/domain-dkim-keys.js';
import { findDomainToBuild, moveBuildState } from '../db/domains.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import { storeDkimKey } from '../resolvers/domains/setup/dkim-keys.js';
import { faultPoint, pausePoint, type TaskFunction } from './job-types.js';
import { checkSetupOnce } from './check-domain-setup.js';

/**
 * queued → building → waiting_for_dns, then live once our checks verify every required record and
 * the provider says the mailboxes exist (check-domain-setup.ts, at once and then on a backoff); a
 * provider refusal is needs_attention with its reason. Each step is a conditional update
 * (`where build_state = ...`), so however many instances or retries run this for one domain, each
 * transition, and the event that goes with it, happens once. A retry after a crash mid-build finds
 * the domain `building` and carries on from there.
 */
export const buildDomain: TaskFunction = async (payload: { domainId: number }, env, run) => {
  const { db, adapter } = env;
  const domain = await findDomainToBuild(db, payload.domainId);
  if (!domain || (domain.build_state !== 'queued' && domain.build_state !== 'building')) return;
  if (domain.build_state === 'queued') {
    await moveBuildState(db, domain.id, 'queued', { build_state: 'building' });
  }
  faultPoint(env, 'build_after_building');
  await pausePoint(env, run, 'build_after_building');
  const built = await adapter.provision({ domain: domain.domain, forwardTo: domain.forward_to });
  if (!built.ok) {
    const eventId = await db.transaction().execute(async (trx) => {
      const moved = await moveBuildState(trx, domain.id, 'building', {
        build_state: 'needs_attention',
        build_reason: built.reason,
        build_problems: JSON.stringify([]),
        built_at: new Date(),
      });
      if (!moved) return null;
      return recordEvent(trx, domain.account_id, 'domain.needs_attention', {
        domain: domain.domain,
        order_id: domain.order_id,
        build_state: 'needs_attention',
        reason: built.reason,
        problems: [],
      });
    });
    if (eventId) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
    return;
  }
  // The key is made once: a retried build keeps the first (the record may already be published).
  const hasKey = await hasDomainDkimKey(db, domain.id);
  if (!hasKey) await storeDkimKey(db, env.services.config.secretsKey, domain.id, await adapter.makeDkimKey(domain.domain));
  await moveBuildState(db, domain.id, 'building', {
    build_state: 'waiting_for_dns',
    built_at: new Date(),
    ...(built.mailboxesCreated && { mailboxes_created_at: new Date() }),
  });
  // The first check at once: a domain whose records are already published goes live now.
  await checkSetupOnce(env, domain.id);
};
