import { findSetupDomainByName } from '../../../db/domains.js';
import { findOrderStatus } from '../../../db/orders.js';
import { REINSTATE_GRACE_DAYS } from '../../orders/reinstatement-checks.js';
import type { Context } from '../../context.js';
import { DomainError, operation, sentence } from '../../domain-error.js';
import { requireAccountId } from '../../auth/require-account.js';
import { normalizeDomain } from '../../checks/normalize-domain.js';
import { computeDomainSetup, type SetupEnvironment } from './compute-domain-setup.js';
import { settleBuildState } from './settle-build-state.js';
import { zoneSnippet } from './zone-snippet.js';
import type { DomainSetup } from './setup-record.js';

export function setupEnvironment(ctx: Context): SetupEnvironment {
  return { db: ctx.services.db, config: ctx.services.config, checks: ctx.checks(), now: ctx.now };
}

/** The domain on one of the caller's orders; anything else (another account's, unknown) is the same 404. */
export async function findSetupDomain(ctx: Context, raw: string) {
  const accountId = await requireAccountId(ctx);
  const { domain } = normalizeDomain(raw);
  const row = await findSetupDomainByName(ctx.services.db, accountId, domain);
  if (!row)
    throw new DomainError(
      'domain_not_found',
      sentence`There is no domain "${domain}" on your orders; ${operation('get_dashboard')} lists yours, and only ordered domains have a setup.`,
    );
  return row;
}

/**
 * A cancelled order's domain keeps its records (nothing here removes them): the reason says so, and
 * how to take them out (the journal's revert) or use them again (reinstating the order).
 */
async function withOrderNote(ctx: Context, row: { order_id: number }, setup: DomainSetup): Promise<DomainSetup> {
  const order = await findOrderStatus(ctx.services.db, row.order_id);
  if (order.status !== 'cancelled') return setup;
  const note = `The order of ${setup.domain} is cancelled and its mailboxes are suspended at the mail provider; these records stay in your DNS until you remove them. To take out what we published through a DNS connection, revert each publish listed in the domain's journal (its setup applies); to use them again, reinstate the order within ${REINSTATE_GRACE_DAYS} days of its cancellation.`;
  return { ...setup, reason: setup.reason ? `${note} ${setup.reason}` : note };
}

/** GET /v1/domains/{domain}/setup: the records the domain needs and each one's status, read now from the zone. */
export async function getDomainSetup(raw: string, ctx: Context): Promise<DomainSetup> {
  const row = await findSetupDomain(ctx, raw);
  return withOrderNote(ctx, row, await readDomainSetup(ctx, row));
}

async function readDomainSetup(ctx: Context, row: Awaited<ReturnType<typeof findSetupDomain>>): Promise<DomainSetup> {
  const env = setupEnvironment(ctx);
  const began = ctx.now();
  const setup = await computeDomainSetup(env, row);
  if (setup.buildState === row.build_state) return setup;
  // The evaluation moved the state (records appeared, or broke): the stored state follows it.
  const settled = await settleBuildState(ctx.services.db, row, setup, row.mailboxes_created_at !== null, ctx.services.config.setupRecheck, began);
  if (settled.eventId) await ctx.services.jobs?.eventRecorded(settled.eventId);
  // Another check moved the state first: answer from the state it recorded.
  if (settled.to !== setup.buildState) return computeDomainSetup(env, { ...row, build_state: settled.to });
  return setup;
}

/**
 * POST /v1/domains/{domain}/setup/check: checks now and records what the check justifies, as the
 * jobs would (a waiting domain whose records appeared goes live at once; a live one whose records
 * broke needs attention; the next check is scheduled), then answers the setup from that same
 * evaluation. `env` lets the apply pass its own reader (the connection's server).
 */
export async function checkDomainSetup(raw: string, ctx: Context, env: SetupEnvironment = setupEnvironment(ctx)): Promise<DomainSetup> {
  const row = await findSetupDomain(ctx, raw);
  const began = ctx.now();
  const setup = await computeDomainSetup(env, row);
  const settled = await settleBuildState(ctx.services.db, row, setup, row.mailboxes_created_at !== null, ctx.services.config.setupRecheck, began);
  if (settled.eventId) await ctx.services.jobs?.eventRecorded(settled.eventId);
  // Another check moved the state first: answer from the state it recorded.
  if (settled.to !== setup.buildState) return withOrderNote(ctx, row, await computeDomainSetup(env, { ...row, build_state: settled.to }));
  return withOrderNote(ctx, row, setup);
}

/** GET /v1/domains/{domain}/setup/zone: the wanted records as a BIND zone-file snippet. */
export async function getDomainSetupZone(raw: string, ctx: Context): Promise<string> {
  const setup = await getDomainSetup(raw, ctx);
  return zoneSnippet(setup.domain, setup.records);
}
