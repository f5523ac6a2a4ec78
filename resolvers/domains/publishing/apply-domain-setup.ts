import type { Context } from '../../context.js';
import { computeDomainSetup, type SetupEnvironment } from '../setup/compute-domain-setup.js';
import { checkDomainSetup, findSetupDomain, setupEnvironment } from '../setup/get-domain-setup.js';
import type { BuildState, WantedRecordWithStatus } from '../setup/setup-record.js';
import type { DnsRecord, PlannedChange } from '../../../clients/dns-publishing/dns-publisher.js';
import { publishRecords } from './publish-records.js';
import { requireVerifiedDomain } from './require-verified-domain.js';
import { recordSetupApply } from './apply-journal.js';
import { publishableRecords } from './refuse-unsafe-publish.js';
import { openDnsPublisher } from './dns-connections.js';
import { createPublisherLookup } from './publisher-lookup.js';

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
  /**
   * After a real apply that changed records: until when resolvers may still give the old answer
   * (the replaced records' TTL, or the zone's negative TTL for names that had nothing); null otherwise.
   */
  readonly cachesMayHoldUntil: string | null;
  /** The same in a sentence; null with it. */
  readonly cacheNote: string | null;
}

/**
 * The setup read through the connection itself (its server asked with TSIG-signed queries, or
 * Cloudflare's API), never a cache: the plan is made from what the zone holds, and a key or server
 * the write would fail with fails here, the dry run included, with the same error.
 */
async function connectionEnvironment(ctx: Context, connectionId: number, domain: string, checks = ctx.checks()): Promise<SetupEnvironment> {
  const { publisher } = await openDnsPublisher(ctx, connectionId);
  return {
    ...setupEnvironment(ctx),
    checks,
    zone: { dns: createPublisherLookup(checks.dns, publisher, domain), readFrom: `the DNS server of connection ${connectionId}` },
  };
}

/** How long caches may keep what an apply replaced: the old records' TTL, or the SOA's negative TTL for a name that had nothing. */
async function cachesAfter(ctx: Context, domain: string, changes: readonly PlannedChange[], at: Date): Promise<{ until: string; seconds: number } | null> {
  if (changes.length === 0) return null;
  let seconds = Math.max(0, ...changes.flatMap((c) => (c.replaces ?? []).map((r) => r.ttl)));
  if (changes.some((c) => (c.replaces ?? []).length === 0)) {
    const soa = await ctx.checks().dns.lookup(domain, 'SOA');
    const record = soa.ok ? soa.records[0] : undefined;
    seconds = Math.max(seconds, record ? Math.min(record.ttl, record.data.minimum) : 0);
  }
  return { until: new Date(at.getTime() + seconds * 1000).toISOString(), seconds };
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
  await requireVerifiedDomain(db, row.account_id, row.domain);
  const setup = await computeDomainSetup(await connectionEnvironment(ctx, connectionId, row.domain), row);
  const pending = publishableRecords(setup.records, ctx.services.config.forwardTarget);
  const result = await publishRecords(ctx, connectionId, pending.map(asDnsRecord), dryRun);
  const none = { cachesMayHoldUntil: null, cacheNote: null };
  if (dryRun || result.changes.length === 0)
    return { domain: setup.domain, connectionId, dryRun, changes: result.changes, buildState: setup.buildState, ready: setup.ready, applyId: null, ...none };
  const appliedAt = ctx.now();
  const applyId = result.journal
    ? await recordSetupApply(ctx, ctx.services.db, { accountId: row.account_id, domain: row.domain, connectionId, rrsets: result.journal })
    : null;
  // Read again through the connection, with a fresh check context: the request's own remembers the
  // lookups made before the records were published. The zone is the truth at once.
  const fresh = ctx.services.createCheckContext({ budget: ctx.scope().budget, signal: ctx.scope().signal });
  const after = await checkDomainSetup(row.domain, ctx, await connectionEnvironment(ctx, connectionId, row.domain, fresh));
  const cached = await cachesAfter(ctx, row.domain, result.changes, appliedAt);
  const until =
    [cached?.until, after.cachesMayHoldUntil]
      .filter((u): u is string => typeof u === 'string')
      .sort()
      .pop() ?? null;
  return {
    domain: after.domain,
    connectionId,
    dryRun,
    changes: result.changes,
    buildState: after.buildState,
    ready: after.ready,
    applyId,
    cachesMayHoldUntil: until,
    cacheNote:
      until === null
        ? null
        : `The zone serves the new records now; resolvers that asked before may keep the old answer until ${until} (the replaced records' TTL, or the zone's negative TTL for names that had none).`,
  };
}
