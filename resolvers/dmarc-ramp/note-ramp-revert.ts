import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { insertDmarcRampStep, listDmarcRampSteps } from '../../db/dmarc-ramp-steps.js';
import { recordEvent } from '../events/record-event.js';
import { describeStep, isRampStep } from './ramp-steps.js';

/**
 * When a journal revert undoes an apply that was a ramp advance, the ramp's timeline says so and a
 * domain.dmarc_reverted event goes out, whoever reverted it: a caller through the setup journal, or
 * the ramp's job on the account's setting (`note` gives the job's reason).
 */
export async function noteRampRevert(
  db: Kysely<Database>,
  entry: { readonly accountId: number; readonly domain: string; readonly applyId: number; readonly revertApplyId: number; readonly at: Date },
  note: { readonly automatic: boolean; readonly reason: string } | null,
): Promise<void> {
  const steps = await listDmarcRampSteps(db, entry.accountId, entry.domain);
  const advance = steps.find((s) => s.kind === 'advanced' && s.apply_id === entry.applyId);
  if (!advance || steps.some((s) => s.reverts_step_id === advance.id)) return;
  const reason = note?.reason ?? `Apply ${entry.applyId} was reverted through the setup journal.`;
  await insertDmarcRampStep(db, {
    account_id: entry.accountId,
    domain: entry.domain,
    kind: 'reverted',
    from_step: advance.to_step,
    to_step: advance.from_step,
    record_before: advance.record_after,
    record_after: advance.record_before,
    apply_id: entry.revertApplyId,
    reverts_step_id: advance.id,
    automatic: note?.automatic ?? false,
    pass_rate: null,
    reason,
    at: entry.at,
  });
  await recordEvent(db, entry.accountId, 'domain.dmarc_reverted', {
    domain: entry.domain,
    from_step: advance.to_step,
    to_step: advance.from_step,
    record: advance.record_before,
    apply_id: entry.revertApplyId,
    reverts_apply_id: entry.applyId,
    automatic: note?.automatic ?? false,
    message: `The DMARC policy of ${entry.domain} is back to ${isRampStep(advance.from_step) ? describeStep(advance.from_step) : advance.from_step}: ${reason}`,
  });
}
