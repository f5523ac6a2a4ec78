import { findDomainBuildState, lockDomainSetupChecks, recordDomainSetupCheck } from '../../../db/domains.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { recordEvent } from '../../events/record-event.js';
import { isBuildState, type BuildState, type DomainSetup } from './setup-record.js';

export interface RecheckSettings {
  readonly firstMs: number;
  readonly maxMs: number;
  readonly liveMs: number;
}

/** The wait before the next check of a setup not ready: first, doubling per check, capped (minutes, then hours). */
export function recheckDelayMs(checks: number, settings: RecheckSettings): number {
  return Math.min(settings.maxMs, settings.firstMs * 2 ** Math.min(Math.max(checks, 0), 30));
}

/**
 * The state a checked setup justifies. Only the states after the build move here (queued and
 * building belong to the build job). `live` needs every required record verified and the provider's
 * word that the mailboxes exist; a live domain whose records break needs attention, and comes back
 * when they are fixed. A record we could not look up (unknown) moves nothing: a DNS outage is not a
 * broken setup.
 */
export function nextBuildState(current: BuildState, setup: Pick<DomainSetup, 'ready' | 'records'>, mailboxesCreated: boolean): BuildState {
  if (current === 'queued' || current === 'building' || awaitsRebuild(current, mailboxesCreated)) return current;
  const unknown = setup.records.some((r) => r.required && r.status === 'unknown');
  if (setup.ready && mailboxesCreated) return 'live';
  if (current === 'live') return unknown ? 'live' : 'needs_attention';
  return current;
}

/**
 * A domain whose build ended in needs_attention before the provider made its mailboxes (the
 * provider refused, Google's DKIM value was missing, or the operator stopped it): only building it
 * again helps (`admin set-build-state --state queued`), so setup checks neither move it nor replace
 * the build's reason with the DNS's. (A needs_attention reached from live always has its mailboxes.)
 */
export function awaitsRebuild(state: string, mailboxesCreated: boolean): boolean {
  return state === 'needs_attention' && !mailboxesCreated;
}

export interface SettledSetup {
  readonly from: BuildState;
  readonly to: BuildState;
  readonly eventId: string | null;
}

/**
 * Records a check: the new state (a conditional update, so two checks at once move it once and
 * record one event), the reason and failing records, and when the jobs check again. Used by the
 * jobs and by "check now", so both tell the same truth.
 */
export async function settleBuildState(
  db: Kysely<Database>,
  domain: { readonly id: number; readonly account_id: number; readonly order_id: number; readonly domain: string; readonly build_state: string },
  setup: DomainSetup,
  mailboxesCreated: boolean,
  settings: RecheckSettings,
  /** When the check began, before its lookups. */
  now: Date,
): Promise<SettledSetup> {
  // The stored state, which the conditional update compares with; the setup's evaluation (the same
  // nextBuildState over the same records, computeDomainSetup) says where it goes.
  const from = isBuildState(domain.build_state) ? domain.build_state : setup.buildState;
  const to = nextBuildState(from, setup, mailboxesCreated);
  if (from === 'queued' || from === 'building' || awaitsRebuild(from, mailboxesCreated)) return { from, to, eventId: null };
  const failing = setup.records.filter((r) => r.required && r.status !== 'verified');
  const problems = failing.map((r) => ({ code: `setup_${r.purpose}_${r.status}`, message: r.detail }));
  // Stored with the record to publish, so the dashboard shows the record its sentence speaks of.
  const storedProblems = failing.map((r, i) => ({ ...problems[i]!, record: { type: r.type, name: r.name, value: r.value } }));
  const reason =
    to === 'live'
      ? null
      : failing.length > 0
        ? failing.map((r) => `${r.purpose.toUpperCase()} ${r.status}: ${r.detail}`).join(' ')
        : setup.ready
          ? 'Every record is verified; waiting for the mail provider to report the mailboxes created.'
          : (setup.reason ?? null);
  return db.transaction().execute(async (trx) => {
    const setupChecks = await lockDomainSetupChecks(trx, domain.id);
    const checks = to === 'live' ? 0 : (setupChecks ?? 0) + 1;
    const next = new Date(now.getTime() + (to === 'live' ? settings.liveMs : recheckDelayMs(checks - 1, settings)));
    const moved = await recordDomainSetupCheck(trx, domain.id, from, now, {
      build_state: to,
      build_reason: reason,
      build_problems: JSON.stringify(storedProblems),
      setup_next_check_at: next,
      setup_checks: checks,
      ...(to === 'live' && from !== 'live' && { built_at: now }),
    });
    if (!moved) {
      const state = (await findDomainBuildState(trx, domain.id)) ?? from;
      return { from, to: isBuildState(state) ? state : from, eventId: null };
    }
    if (from === to) return { from, to, eventId: null };
    const eventId = await recordEvent(trx, domain.account_id, to === 'live' ? 'domain.live' : 'domain.needs_attention', {
      domain: domain.domain,
      order_id: domain.order_id,
      build_state: to,
      reason,
      problems,
      failing_records: failing.map((r) => ({ purpose: r.purpose, type: r.type, name: r.name, status: r.status, found: r.found, wanted: r.value })),
    });
    return { from, to, eventId };
  });
}
