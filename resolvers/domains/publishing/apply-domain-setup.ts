import type { Context } from '../../context.js';
import { ApiError } from '../../api-error.js';
import { verifiedDomains, verificationToken } from '../../orders/domain-verification.js';
import { verificationName, verificationValue } from '../../orders/verification-record.js';
import { computeDomainSetup } from '../setup/compute-domain-setup.js';
import { checkDomainSetup, findSetupDomain, setupEnvironment } from '../setup/get-domain-setup.js';
import type { BuildState, WantedRecordWithStatus } from '../setup/setup-record.js';
import type { DnsRecord, PlannedChange } from './dns-publisher.js';
import { publishRecords } from './publish-records.js';
import { recordSetupApply } from './apply-journal.js';
import { publishableRecords } from './refuse-unsafe-publish.js';

export interface AppliedSetup {
  readonly domain: string;
  readonly connectionId: number;
  readonly dryRun: boolean;
  /** The changes made, or with dryRun the ones that would be; [] when every record is already served. */
  readonly changes: readonly PlannedChange[];
  /** The domain's build state after the apply (checked again after a real one), or as stored for a dry run. */
  readonly buildState: BuildState;
  /** Every required record verified, by our own checks after the apply. */
  readonly ready: boolean;
  /** The journal entry of a real apply that wrote records (GET .../setup/applies; revert puts them back); null otherwise. */
  readonly applyId: number | null;
}

function asDnsRecord(record: WantedRecordWithStatus): DnsRecord {
  return { type: record.type, name: record.name, value: record.value, ttl: record.ttl, ...(record.priority !== undefined && { priority: record.priority }) };
}

/**
 * POST /v1/domains/{domain}/setup/apply: publishes the domain's required records that our checks do
 * not find verified through one of the caller's DNS connections (docs/domain-publishing.md). The
 * domain must be on the caller's orders (404) and proved theirs (409 domain_not_verified); a record
 * already verified is never passed on (so Google's legacy ASPMX set, which verifies, stays), and a
 * failed lookup or an unsafe merge refuses the whole apply before anything is written
 * (refuse-unsafe-publish.ts). After a real apply the setup is
 * checked again and its build state recorded, as "check now" does, so the answer (and the jobs)
 * see the records at once.
 */
export async function applyDomainSetup(raw: string, connectionId: number, dryRun: boolean, ctx: Context): Promise<AppliedSetup> {
  const row = await findSetupDomain(ctx, raw);
  const db = ctx.services.db;
  const [verified] = await verifiedDomains(db, row.account_id, [row.domain]);
  if (!verified) {
    const token = await verificationToken(db, row.account_id);
    throw new ApiError(
      409,
      'domain_not_verified',
      `${row.domain} is not verified as yours, so its records are not published for you: publish TXT at ${verificationName(row.domain)} with the value "${verificationValue(token)}", then POST /v1/domains/${row.domain}/verify and apply again.`,
    );
  }
  const setup = await computeDomainSetup(setupEnvironment(ctx), row);
  const pending = publishableRecords(setup.records, ctx.services.config.forwardTarget);
  const result = await publishRecords(ctx, connectionId, pending.map(asDnsRecord), dryRun);
  if (dryRun || result.changes.length === 0)
    return { domain: setup.domain, connectionId, dryRun, changes: result.changes, buildState: setup.buildState, ready: setup.ready, applyId: null };
  const applyId = result.journal ? await recordSetupApply(ctx, { accountId: row.account_id, domain: row.domain, connectionId, rrsets: result.journal }) : null;
  // A fresh check context: the request's own remembers the lookups made before the records were published.
  const fresh = ctx.services.createCheckContext({ budget: ctx.scope().budget, signal: ctx.scope().signal });
  const after = await checkDomainSetup(row.domain, { ...ctx, checks: () => fresh });
  return { domain: after.domain, connectionId, dryRun, changes: result.changes, buildState: after.buildState, ready: after.ready, applyId };
}
