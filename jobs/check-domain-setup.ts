import { findDomainNextSetupCheck, findSetupDomainById, listDomainsDueSetupCheck, markMailboxesCreated } from '../db/domains.js';
import { computeDomainSetup } from '../resolvers/domains/setup/compute-domain-setup.js';
import { activatePendingMailboxes } from '../db/mailboxes.js';
import { awaitsRebuild, settleBuildState, type SettledSetup } from '../resolvers/domains/setup/settle-build-state.js';
import type { JobEnvironment, TaskFunction } from './job-types.js';
import { jobCheckContext } from './job-check-context.js';
import { queueDueMonitoring } from './sweep.js';

/** The states whose setup the jobs watch: after the build, before nothing. */
export const CHECKED_STATES = ['waiting_for_dns', 'live', 'needs_attention'] as const;

/**
 * Checks one built domain's setup now and records the state it justifies, with its event (sent on
 * to webhooks and alert e-mails). A domain not yet live is checked again on the backoff; one that
 * just went live is watched from now on.
 */
export async function checkSetupOnce(env: JobEnvironment, domainId: number): Promise<SettledSetup | null> {
  const { db } = env;
  const domain = await findSetupDomainById(db, domainId);
  if (!domain || !(CHECKED_STATES as readonly string[]).includes(domain.build_state)) return null;
  // A build the provider refused is not checked (settle-build-state.ts, awaitsRebuild): asking the
  // adapter now would take its word for mailboxes it never made.
  if (awaitsRebuild(domain.build_state, domain.mailboxes_created_at !== null)) return null;
  let mailboxes = domain.mailboxes_created_at !== null;
  if (!mailboxes && (await env.adapter.mailboxesCreated(domain.domain))) {
    await markMailboxesCreated(db, domain.id, new Date());
    await activatePendingMailboxes(db, domain.id, new Date());
    mailboxes = true;
  }
  const { checks } = jobCheckContext(env.services);
  const began = new Date();
  // The row as it is now (the mailboxes may have just been marked), so the evaluation and the stored state agree.
  const row = { ...domain, mailboxes_created_at: mailboxes ? (domain.mailboxes_created_at ?? began) : null };
  const setup = await computeDomainSetup({ db, config: env.services.config, checks, now: () => new Date() }, row);
  const settled = await settleBuildState(db, domain, setup, mailboxes, env.services.config.setupRecheck, began);
  if (settled.eventId) await env.enqueue('fan_out_event', { eventId: settled.eventId }, { key: `fan_out:${settled.eventId}` });
  if (settled.to === 'live' && settled.from !== 'live') await queueDueMonitoring(env, domain.order_id);
  if (settled.to !== 'live') {
    // The next check on the backoff; the sweep picks up any that a dead process did not queue.
    const nextCheckAt = await findDomainNextSetupCheck(db, domain.id);
    if (nextCheckAt) await env.enqueue('check_domain_setup', { domainId: domain.id }, { key: `setup:${domain.id}`, runAt: new Date(nextCheckAt) });
  }
  return settled;
}

export const checkDomainSetupTask: TaskFunction = async (payload: { domainId: number }, env) => {
  await checkSetupOnce(env, payload.domainId);
};

/** Domains whose next setup check is due (the sweep queues them; the job key keeps one per domain). */
export async function queueDueSetupChecks(env: JobEnvironment): Promise<number> {
  const due = await listDomainsDueSetupCheck(env.db, CHECKED_STATES, new Date());
  for (const id of due) await env.enqueue('check_domain_setup', { domainId: id }, { key: `setup:${id}` });
  return due.length;
}
