import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findOwnedDomain } from '../changes/find-owned.js';
import { readZoneOf } from '../../clients/dns/zone-lookup.js';
import { findDomainSources } from '../../db/dmarc-report-rows.js';
import { findDmarcRampAuto, findLatestApplyConnection, findRampReportFigures, listDmarcRampSteps } from '../../db/dmarc-ramp-steps.js';
import type { DmarcRampStepRow } from '../../db/schema.js';
import type { CheckContext } from '../checks/check-context.js';
import { identifyFailingSources } from './identify-failing-sources.js';
import { judgeRampReadiness, passRateOf, RAMP_MIN_PASS_RATE, type FailingSource, type RampFigures } from './ramp-readiness.js';
import { readDmarcRecord, type DmarcRecordRead } from './read-dmarc-record.js';
import { stepOf, type RampStep } from './ramp-steps.js';
import { DMARC_ALERT_MIN_MESSAGES } from '../reports/report-alerts.js';

/** Reports older than this are not read for readiness, whenever the current step was taken. */
const WINDOW_DAYS = 30;

export interface RampTimelineEntry {
  readonly id: number;
  readonly kind: 'advanced' | 'reverted';
  readonly fromStep: string;
  readonly toStep: string;
  readonly recordBefore: string;
  readonly recordAfter: string;
  readonly applyId: number;
  readonly automatic: boolean;
  readonly passRate: number | null;
  readonly reason: string;
  readonly at: Date;
}

export interface RampRevertOffer {
  /** The advance to undo, and its journal entry (POST .../setup/applies/{apply_id}/revert undoes it). */
  readonly stepId: number;
  readonly applyId: number;
  readonly reason: string;
}

export interface DmarcRamp {
  readonly domain: string;
  /** The step the published record stands on; null when it could not be read. */
  readonly step: RampStep | null;
  /** The DMARC record as read from the zone's own servers; null when none is published or the read failed. */
  readonly record: string | null;
  readonly readFrom: string;
  readonly nextStep: RampStep | null;
  readonly ready: boolean;
  readonly blockedBy: string | null;
  readonly window: RampFigures & { readonly passRate: number | null };
  readonly failingSources: readonly FailingSource[];
  readonly autoAdvance: boolean;
  /** The connection the ramp publishes through on its own: the one of the domain's latest apply; null without one. */
  readonly connectionId: number | null;
  readonly revertOffered: RampRevertOffer | null;
  readonly timeline: readonly RampTimelineEntry[];
}

/** What the ramp knows of a domain, read through `dns` (the zone's servers for GET; a connection's for an advance). */
export interface RampFacts {
  readonly domainId: number;
  readonly domain: string;
  readonly accountId: number;
  readonly read: DmarcRecordRead;
  readonly readFrom: string;
  readonly figures: RampFigures;
  readonly failing: readonly FailingSource[];
  readonly steps: readonly DmarcRampStepRow[];
  readonly revertOffered: RampRevertOffer | null;
}

const day = (at: Date): string => at.toISOString().slice(0, 10);

/** The day readiness counts from: the current step's (the last change of the timeline), at most WINDOW_DAYS back. */
function windowStart(steps: readonly DmarcRampStepRow[], now: Date): string {
  const oldest = day(new Date(now.getTime() - (WINDOW_DAYS - 1) * 86_400_000));
  const last = steps.at(-1);
  if (!last) return oldest;
  const changed = day(new Date(last.at));
  return changed > oldest ? changed : oldest;
}

/**
 * The facts a ramp decision is made on: the record as `dns` serves it, the authenticated reports'
 * figures since the current step, each failing source identified, and whether the last advance
 * should be undone (a pass rate that fell under the threshold, or a failing sender of the customer's
 * own, since it was taken).
 */
export async function gatherRampFacts(
  ctx: Context,
  owned: { readonly id: number; readonly domain: string },
  accountId: number,
  zone: { readonly dns: CheckContext['dns']; readonly readFrom: string },
): Promise<RampFacts> {
  const db = ctx.services.db;
  const now = ctx.now();
  const steps = await listDmarcRampSteps(db, accountId, owned.domain);
  const from = windowStart(steps, now);
  const [read, counts, sources] = await Promise.all([
    readDmarcRecord(zone.dns, owned.domain, zone.readFrom),
    findRampReportFigures(db, owned.id, from),
    findDomainSources(db, owned.id, from, 1000),
  ]);
  const failing = await identifyFailingSources(
    db,
    ctx.checks(),
    owned.domain,
    sources.filter((s) => s.passed < s.messages).map((s) => ({ sourceIp: s.source_ip, failed: s.messages - s.passed })),
  );
  const figures: RampFigures = { from, to: day(now), days: counts.days, messages: counts.messages, passed: counts.passed };
  return {
    domainId: owned.id,
    domain: owned.domain,
    accountId,
    read,
    readFrom: zone.readFrom,
    figures,
    failing,
    steps,
    revertOffered: revertOffer(steps, figures, failing),
  };
}

/**
 * After a standing advance: undo it when one of the customer's own senders fails since, or the pass
 * rate since falls under the threshold (on at least as many messages as a pass-rate alert needs, so
 * one stray report does not undo a week's step).
 */
function revertOffer(steps: readonly DmarcRampStepRow[], figures: RampFigures, failing: readonly FailingSource[]): RampRevertOffer | null {
  const last = steps.at(-1);
  if (!last || last.kind !== 'advanced') return null;
  const own = failing.filter((s) => s.ownSender === true);
  const rate = passRateOf(figures.messages, figures.passed);
  let reason: string | null = null;
  if (own.length > 0) reason = `Since ${last.to_step} was published, mail from your own sender ${own.map((s) => s.sourceIp).join(', ')} fails DMARC.`;
  else if (rate !== null && figures.messages >= DMARC_ALERT_MIN_MESSAGES && rate < RAMP_MIN_PASS_RATE)
    reason = `Since ${last.to_step} was published, ${rate}% of the ${figures.messages} reported messages pass DMARC (under ${RAMP_MIN_PASS_RATE}%).`;
  return reason === null ? null : { stepId: last.id, applyId: last.apply_id, reason };
}

export function timelineOf(steps: readonly DmarcRampStepRow[]): RampTimelineEntry[] {
  return steps.map((s) => ({
    id: s.id,
    kind: s.kind,
    fromStep: s.from_step,
    toStep: s.to_step,
    recordBefore: s.record_before,
    recordAfter: s.record_after,
    applyId: s.apply_id,
    automatic: s.automatic,
    passRate: s.pass_rate,
    reason: s.reason,
    at: new Date(s.at),
  }));
}

/** The ramp as an answer, from its facts. */
export function rampAnswer(facts: RampFacts, autoAdvance: boolean, connectionId: number | null): DmarcRamp {
  const step = facts.read.ok ? stepOf(facts.read.record) : null;
  const judged = step === null ? null : judgeRampReadiness(facts.domain, step, facts.figures, facts.failing);
  const blockedBy = !facts.read.ok
    ? facts.read.problem
    : facts.read.record === null
      ? `${facts.domain} publishes no DMARC record; apply its setup first (it publishes p=none with our report address), then the ramp climbs from there.`
      : (judged?.blockedBy ?? null);
  return {
    domain: facts.domain,
    step,
    record: facts.read.ok ? facts.read.record : null,
    readFrom: facts.readFrom,
    nextStep: judged?.nextStep ?? null,
    ready: facts.read.ok && facts.read.record !== null && (judged?.ready ?? false),
    blockedBy,
    window: { ...facts.figures, passRate: passRateOf(facts.figures.messages, facts.figures.passed) },
    failingSources: facts.failing,
    autoAdvance,
    connectionId,
    revertOffered: facts.revertOffered,
    timeline: timelineOf(facts.steps),
  };
}

/**
 * GET /v1/domains/{domain}/dmarc-ramp (docs/dmarc-ramp.md): the step the domain's published DMARC
 * record stands on (read from the zone's own servers), whether the next one is safe and what blocks
 * it, from the authenticated aggregate reports since the current step; the failing sources named;
 * the timeline of steps taken and undone; an offer to undo the last advance when mail suffers.
 */
export async function getDmarcRamp(raw: string, ctx: Context): Promise<DmarcRamp> {
  const accountId = await requireAccountId(ctx);
  const owned = await findOwnedDomain(ctx.services.db, accountId, raw);
  const zone = await readZoneOf(ctx.checks().dns, owned.domain);
  const facts = await gatherRampFacts(ctx, owned, accountId, zone);
  const [auto, connection] = await Promise.all([
    findDmarcRampAuto(ctx.services.db, accountId),
    findLatestApplyConnection(ctx.services.db, accountId, owned.domain),
  ]);
  return rampAnswer(facts, auto, connection?.connection_id ?? null);
}
