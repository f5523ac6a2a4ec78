import { findLatestApplyConnection, listVerifiedRampDomains } from '../db/dmarc-ramp-steps.js';
import { log } from '../observability/log.js';
import { DomainError } from '../resolvers/domain-error.js';
import { advanceDmarcRamp } from '../resolvers/dmarc-ramp/advance-dmarc-ramp.js';
import { getDmarcRamp } from '../resolvers/dmarc-ramp/get-dmarc-ramp.js';
import { revertSetupApply } from '../resolvers/domains/publishing/revert-apply.js';
import { accountJobContext } from './account-job-context.js';
import type { TaskFunction } from './job-types.js';

/**
 * The automatic DMARC ramp of one account (its setting on; the sweep queues it once a day): for each
 * of its proved domains with a DNS connection (the one of its latest apply), undo the last advance
 * when the ramp offers it, else advance when the ramp is ready. Each publish goes through the same
 * journaled apply a caller's would, with the same refusals; a refusal (a failed read, a changed zone)
 * leaves the domain as it is until the next day, with a log line.
 */
export const dmarcRampTask: TaskFunction = async (payload: { accountId: number }, env) => {
  const ctx = accountJobContext(env.services, payload.accountId, 'dmarc_ramp');
  for (const { domain } of await listVerifiedRampDomains(env.db, payload.accountId)) {
    const connection = await findLatestApplyConnection(env.db, payload.accountId, domain);
    if (!connection) continue;
    try {
      const ramp = await getDmarcRamp(domain, ctx);
      if (ramp.revertOffered) await revertSetupApply(domain, ramp.revertOffered.applyId, false, ctx, { automatic: true, reason: ramp.revertOffered.reason });
      else if (ramp.ready) await advanceDmarcRamp(domain, connection.connection_id, false, ctx, true);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      log('warn', 'the automatic DMARC ramp left a domain as it is', { account_id: payload.accountId, domain, code: error.code, detail: error.detail });
    }
  }
};
