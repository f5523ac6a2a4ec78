import type { Context } from '../context.js';
import type { Dns01Responder } from '../../clients/acme/acme-issuer.js';
import { findZoneServers } from '../../clients/dns/zone-lookup.js';
import { findSetupDomain } from '../domains/setup/get-domain-setup.js';
import { publishRecords } from '../domains/publishing/publish-records.js';
import { recordSetupApply } from '../domains/publishing/apply-journal.js';
import { revertSetupApply } from '../domains/publishing/revert-apply.js';
import { requireVerifiedDomain } from '../domains/publishing/require-verified-domain.js';

/** The challenge's TTL: short, so a resolver that asked before it was published forgets soon. */
const CHALLENGE_TTL = 60;

export interface Dns01Options {
  /** How long put waits for every name server of the zone to serve the TXT (ACME_DNS01_WAIT_SECONDS). */
  readonly waitMs: number;
  /** The first pause between two readings; it doubles up to 5 s. */
  readonly firstPollMs?: number;
}

/**
 * DNS-01 (RFC 8555 8.4) through the domain's DNS connection, as the account itself would publish: the
 * TXT at `_acme-challenge.<domain>` goes through the journaled apply (publish-records.ts: the name is
 * read through the connection first, the record is added beside whatever TXT is there, never over
 * it, and the write is an entry in the domain's journal), and is withdrawn by reverting that entry
 * (revert-apply.ts: refused, and left for the customer, when the name changed since). Between the two,
 * put waits until every name server the zone is delegated to answers the TXT with authority: the
 * authority asks those, never our resolver's cache. `ctx` acts for the domain's account
 * (jobs/account-job-context.ts).
 */
export function dns01ThroughConnection(ctx: Context, connectionId: number, options: Dns01Options): Dns01Responder & { readonly applyId: () => number | null } {
  let applyId: number | null = null;
  return {
    applyId: () => applyId,
    async put({ domain, name, value }) {
      const row = await findSetupDomain(ctx, domain);
      await requireVerifiedDomain(ctx.services.db, row.account_id, row.domain);
      const result = await publishRecords(ctx, connectionId, [{ type: 'TXT', name, value, ttl: CHALLENGE_TTL }], false);
      if (result.journal)
        applyId = await recordSetupApply(ctx, ctx.services.db, { accountId: row.account_id, domain: row.domain, connectionId, rrsets: result.journal });
      await waitUntilServed(ctx, { domain: row.domain, name, value }, options);
    },
    async remove({ domain }) {
      if (applyId === null) return;
      const entry = applyId;
      applyId = null;
      // The setup is not checked again: a challenge is no record of the setup.
      await revertSetupApply(domain, entry, false, ctx, null, { recheck: false });
    },
  };
}

/** Every address of the zone's name servers answers TXT `name` with authority and holds `value`: the addresses that do not yet, or a reason none can be asked. */
async function notServingYet(ctx: Context, txt: { domain: string; name: string; value: string }): Promise<string[] | string> {
  // A fresh context per reading: a request's lookup asks each (server, name, type) once.
  const dns = ctx.services.createCheckContext({}).dns;
  const servers = await findZoneServers(dns, txt.domain);
  if ('reason' in servers) return servers.reason;
  if (!dns.askServer) return 'this lookup cannot ask name servers directly';
  const pending: string[] = [];
  for (const address of servers.addresses) {
    const reply = await dns.askServer(address, txt.name, 'TXT');
    const served = reply.ok && reply.authoritative && reply.answer.ok && reply.answer.records.some((r) => r.data.join('') === txt.value);
    if (!served) pending.push(address);
  }
  return pending;
}

async function waitUntilServed(ctx: Context, txt: { domain: string; name: string; value: string }, options: Dns01Options): Promise<void> {
  const deadline = Date.now() + options.waitMs;
  let pause = options.firstPollMs ?? 250;
  for (;;) {
    const pending = await notServingYet(ctx, txt);
    if (typeof pending === 'string')
      throw new Error(`the name servers of ${txt.domain} could not be asked whether they serve the challenge at ${txt.name} (${pending})`);
    if (pending.length === 0) return;
    if (Date.now() + pause > deadline)
      throw new Error(
        `the challenge TXT at ${txt.name} was published but ${pending.join(', ')} did not serve it within ${Math.round(options.waitMs / 1000)} s; check that the connection writes to the primary its name servers copy from`,
      );
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 5000);
  }
}
