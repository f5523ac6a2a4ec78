import { hasDomainDkimKey } from '../db/domain-dkim-keys.js';
import { findDomainToBuild, moveBuildState } from '../db/domains.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import { storeDkimKey } from '../resolvers/domains/setup/dkim-keys.js';
import { faultPoint, pausePoint, type JobEnvironment, type TaskFunction } from './job-types.js';
import { checkSetupOnce } from './check-domain-setup.js';
import { activatePendingMailboxes, findMailboxSecretsOfDomain, setMailboxPassword } from '../db/mailboxes.js';
import { decryptSecret, encryptSecret } from '../resolvers/secrets/encrypt-secret.js';
import { generateMailboxPassword, mailboxSealPurpose } from '../resolvers/mailboxes/mailbox-passwords.js';
import type { ProvisionedMailbox } from '../clients/mailboxes/provisioning-adapter.js';

/**
 * The domain's mailboxes with their passwords: one is generated and sealed for each mailbox that has
 * none before the provider is asked, so a retried build sends the provider the same passwords.
 */
async function mailboxesWithPasswords(env: JobEnvironment, domainId: number, domain: string): Promise<ProvisionedMailbox[]> {
  const key = env.services.config.secretsKey;
  const rows = await findMailboxSecretsOfDomain(env.db, domainId);
  const out: ProvisionedMailbox[] = [];
  for (const m of rows) {
    let password: string;
    if (m.password_sealed) password = decryptSecret(key, m.password_sealed, mailboxSealPurpose(m.id));
    else {
      password = generateMailboxPassword();
      await setMailboxPassword(env.db, m.id, encryptSecret(key, password, mailboxSealPurpose(m.id)));
    }
    out.push({ email: `${m.local_part}@${domain}`, firstName: m.first_name, lastName: m.last_name, password });
  }
  return out;
}

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
  const mailboxes = await mailboxesWithPasswords(env, domain.id, domain.domain);
  const built = await adapter.provision({ domain: domain.domain, forwardTo: domain.forward_to, mailboxes });
  if (!built.ok) {
    const eventId = await db.transaction().execute(async (trx) => {
      const moved = await moveBuildState(trx, domain.id, 'building', {
        build_state: 'needs_attention',
        build_reason: built.reason,
        build_problems: JSON.stringify([]),
        built_at: new Date(),
        // No setup checks until it is built again: they cannot help (settle-build-state.ts, awaitsRebuild).
        setup_next_check_at: null,
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
  if (built.mailboxesCreated) await activatePendingMailboxes(db, domain.id, new Date());
  // The first check at once: a domain whose records are already published goes live now.
  await checkSetupOnce(env, domain.id);
};
