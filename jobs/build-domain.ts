import { recordEvent } from '../resolvers/events/record-event.js';
import { faultPoint, pausePoint, type TaskFunction } from './job-types.js';
import { verifyDomainDns } from './verify-domain-dns.js';
import { queueDueMonitoring } from './sweep.js';

/**
 * queued → building → live (or needs_attention with a reason). Each step is a conditional update
 * (`where build_state = ...`), so however many instances or retries run this for one domain, each
 * transition, and the event that goes with it, happens once. A retry after a crash mid-build finds
 * the domain `building` and carries on from there.
 */
export const buildDomain: TaskFunction = async (payload: { domainId: number }, env, run) => {
  const { db, adapter } = env;
  const domain = await db
    .selectFrom('domains')
    .select(['id', 'account_id', 'order_id', 'domain', 'forward_to', 'build_state'])
    .where('id', '=', payload.domainId)
    .executeTakeFirst();
  if (!domain || (domain.build_state !== 'queued' && domain.build_state !== 'building')) return;
  if (domain.build_state === 'queued') {
    await db.updateTable('domains').set({ build_state: 'building' }).where('id', '=', domain.id).where('build_state', '=', 'queued').execute();
  }
  faultPoint(env, 'build_after_building');
  await pausePoint(env, run, 'build_after_building');
  const built = await adapter.provision({ domain: domain.domain, forwardTo: domain.forward_to });
  const problems = built.ok ? await verifyDomainDns(env.services, domain.domain, domain.forward_to) : [];
  const attention = !built.ok || (adapter.enforcesDns && problems.length > 0);
  const reason = !built.ok ? built.reason : attention ? problems.map((p) => p.message).join(' ') : null;
  const state = attention ? 'needs_attention' : 'live';
  const eventId = await db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('domains')
      .set({ build_state: state, build_reason: reason, build_problems: JSON.stringify(problems), built_at: new Date() })
      .where('id', '=', domain.id)
      .where('build_state', '=', 'building')
      .returning('id')
      .executeTakeFirst();
    if (!moved) return null;
    return recordEvent(trx, domain.account_id, attention ? 'domain.needs_attention' : 'domain.live', {
      domain: domain.domain,
      order_id: domain.order_id,
      build_state: state,
      reason,
      problems,
    });
  });
  if (eventId) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
  // A domain with the switch on is watched from the moment it is built, not from the next sweep.
  if (eventId) await queueDueMonitoring(env, domain.order_id);
};
