import type { Context } from '../context.js';
import { DomainError, operation, sentence } from '../domain-error.js';
import { insertDmarcRampStep } from '../../db/dmarc-ramp-steps.js';
import { recordEvent } from '../events/record-event.js';
import { findSetupDomain } from '../domains/setup/get-domain-setup.js';
import { dmarcReportAddress } from '../domains/setup/wanted-records.js';
import { SETUP_TTL } from '../domains/setup/setup-record.js';
import { openDnsPublisher } from '../domains/publishing/dns-connections.js';
import { createPublisherLookup } from '../domains/publishing/publisher-lookup.js';
import { publishRecords } from '../domains/publishing/publish-records.js';
import { recordSetupApply } from '../domains/publishing/apply-journal.js';
import { requireVerifiedDomain } from '../domains/publishing/require-verified-domain.js';
import type { PlannedChange } from '../../clients/dns-publishing/dns-publisher.js';
import { gatherRampFacts } from './get-dmarc-ramp.js';
import { judgeRampReadiness, passRateOf } from './ramp-readiness.js';
import { describeStep, raiseDmarc, stepOf, type RampStep } from './ramp-steps.js';

export interface AdvancedDmarcRamp {
  readonly domain: string;
  readonly connectionId: number;
  readonly dryRun: boolean;
  readonly fromStep: RampStep;
  readonly toStep: RampStep;
  readonly recordBefore: string;
  readonly recordAfter: string;
  /** The change made, or with dryRun the one that would be. */
  readonly changes: readonly PlannedChange[];
  /** The journal entry of the publish (revert it to undo the step); null for a dry run. */
  readonly applyId: number | null;
  /** The timeline entry; null for a dry run. */
  readonly stepId: number | null;
}

/**
 * POST /v1/domains/{domain}/dmarc-ramp/advance (docs/dmarc-ramp.md): publishes the next step of the
 * domain's DMARC policy through one of the caller's DNS connections, and only when the ramp is
 * ready. Everything is read through the connection itself (the record as its server holds it, never
 * a cache): a failed read refuses (503), as does any blocker (409 ramp_not_ready with its sentence).
 * The new record is the old one with p= (and pct=) raised and every other tag and report address
 * kept; the publish goes through the journaled apply, so the step is undone by reverting its entry.
 */
export async function advanceDmarcRamp(raw: string, connectionId: number, dryRun: boolean, ctx: Context, automatic = false): Promise<AdvancedDmarcRamp> {
  const row = await findSetupDomain(ctx, raw);
  const db = ctx.services.db;
  await requireVerifiedDomain(db, row.account_id, row.domain);
  const { publisher } = await openDnsPublisher(ctx, connectionId);
  const readFrom = `the DNS server of connection ${connectionId}`;
  const facts = await gatherRampFacts(ctx, row, row.account_id, { dns: createPublisherLookup(ctx.checks().dns, publisher, row.domain), readFrom });
  if (!facts.read.ok) throw new DomainError('dns_lookup_failed', `${facts.read.problem} Nothing was changed; advance again when the server answers.`);
  const before = facts.read.record;
  if (before === null)
    throw new DomainError(
      'ramp_not_ready',
      sentence`${row.domain} publishes no DMARC record at ${readFrom}; apply its setup first (${operation('apply_domain_setup', { domain: row.domain })}), then advance. Nothing was changed.`,
    );
  const from = stepOf(before);
  const judged = judgeRampReadiness(row.domain, from, facts.figures, facts.failing);
  if (judged.nextStep === null)
    throw new DomainError('ramp_at_top', `${row.domain} already publishes ${describeStep(from)}, the last step of the ramp. Nothing was changed.`);
  if (!judged.ready) throw new DomainError('ramp_not_ready', `${judged.blockedBy} Nothing was changed.`);
  const to = judged.nextStep;
  const after = raiseDmarc(before, to, dmarcReportAddress(ctx.services.config.reportsDomain));
  const record = { type: 'TXT', name: `_dmarc.${row.domain}`, value: after, ttl: facts.read.ttl ?? SETUP_TTL };
  const result = await publishRecords(ctx, connectionId, [record], dryRun);
  const base = { domain: row.domain, connectionId, dryRun, fromStep: from, toStep: to, recordBefore: before, recordAfter: after, changes: result.changes };
  const journal = result.journal;
  if (dryRun || !journal) return { ...base, applyId: null, stepId: null };

  // The journal entry, the ramp's step and its event are written together or not at all.
  const { applyId, step } = await db.transaction().execute(async (trx) => {
    const applyId = await recordSetupApply(ctx, trx, { accountId: row.account_id, domain: row.domain, connectionId, rrsets: journal });
    const passRate = passRateOf(facts.figures.messages, facts.figures.passed);
    const reason = `${facts.figures.days} days of reports since ${facts.figures.from}, ${passRate ?? 0}% of ${facts.figures.messages} messages passing DMARC, no failing sender of yours.`;
    const step = await insertDmarcRampStep(trx, {
      account_id: row.account_id,
      domain: row.domain,
      kind: 'advanced',
      from_step: from,
      to_step: to,
      record_before: before,
      record_after: after,
      apply_id: applyId,
      automatic,
      pass_rate: passRate,
      reason,
      at: ctx.now(),
    });
    await recordEvent(trx, row.account_id, 'domain.dmarc_advanced', {
      domain: row.domain,
      from_step: from,
      to_step: to,
      record: after,
      apply_id: applyId,
      automatic,
      message: `The DMARC policy of ${row.domain} went from ${describeStep(from)} to ${describeStep(to)}${automatic ? ', by the automatic ramp' : ''}: ${reason} If your mail suffers, undo it from the domain's Analytics page (the ramp's timeline).`,
    });
    return { applyId, step };
  });
  return { ...base, applyId, stepId: step.id };
}
