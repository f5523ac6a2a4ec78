import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findSourcePtrNames, upsertSourcePtrNames } from '../../db/source-ptr-names.js';
import type { DnsLookup } from '../../clients/dns/dns-types.js';
import { isMissing } from '../../clients/dns/dns-types.js';
import { parseSpfIp, reverseName } from '../checks/spf/spf-ip.js';
import { createConcurrencyLimit } from '../../clients/dns/concurrency-limit.js';

/**
 * Bounds on naming a domain's sources by PTR (docs/reports.md, "Reading"): a sources read asks at
 * most PTR_LOOKUPS_PER_READ addresses not named recently, PTR_CONCURRENCY at a time, and waits at
 * most PTR_WAIT_MS for all of them; an answer (a name, or none) is kept PTR_KEEP_MS and shared by
 * every account and instance through the database. A lookup that failed (timeout, SERVFAIL) is not
 * kept: the next read asks again.
 */
export const PTR_LOOKUPS_PER_READ = 50;
export const PTR_CONCURRENCY = 8;
export const PTR_WAIT_MS = 2_000;
export const PTR_KEEP_MS = 7 * 86_400_000;

/**
 * Whether the PTR name leads back to the address (forward-confirmed reverse DNS): anyone who holds
 * an address block can make its PTR say "mail.google.com", so a name is shown only when its own
 * A or AAAA records hold the address. null when the forward lookup failed (asked again next read).
 */
async function forwardConfirms(dns: DnsLookup, name: string, ip: string): Promise<boolean | null> {
  const v6 = ip.includes(':');
  const answer = await dns.lookup(name, v6 ? 'AAAA' : 'A').catch(() => null);
  if (answer === null) return null;
  if (!answer.ok) return isMissing(answer) ? false : null;
  const want = canonicalAddress(ip);
  return answer.records.some((r) => canonicalAddress(String(r.data)) === want);
}

/** One spelling per address: IPv6 compressed and in lower case (the URL parser's canonical form). */
function canonicalAddress(ip: string): string {
  if (!ip.includes(':')) return ip.trim();
  try {
    return new URL(`http://[${ip.trim()}]/`).hostname.toLowerCase();
  } catch {
    return ip.trim().toLowerCase();
  }
}

/** The PTR name of each address (lower case, no trailing dot), null when it has none or the lookup did not answer in time. */
export async function nameSources(
  db: Kysely<Database>,
  dns: DnsLookup,
  sourceIps: readonly string[],
  now: Date,
  bounds: { readonly lookups?: number; readonly waitMs?: number } = {},
): Promise<Map<string, string | null>> {
  const known = await findSourcePtrNames(db, sourceIps, new Date(now.getTime() - PTR_KEEP_MS));
  const ask = sourceIps.filter((ip) => !known.has(ip)).slice(0, bounds.lookups ?? PTR_LOOKUPS_PER_READ);
  if (ask.length === 0) return known;
  const limit = createConcurrencyLimit(PTR_CONCURRENCY);
  const answered = new Map<string, string | null>();
  const lookups = Promise.all(
    ask.map((ip) =>
      limit.run(async () => {
        const parsed = parseSpfIp(ip);
        if (!parsed) return;
        const answer = await dns.lookup(reverseName(parsed), 'PTR').catch(() => null);
        if (answer === null) return;
        if (!answer.ok) {
          if (isMissing(answer)) answered.set(ip, null);
          return;
        }
        const name = answer.records[0] ? answer.records[0].data.toLowerCase().replace(/\.$/, '') : null;
        if (name === null) return void answered.set(ip, null);
        const confirmed = await forwardConfirms(dns, name, ip);
        if (confirmed !== null) answered.set(ip, confirmed ? name : null);
      }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, bounds.waitMs ?? PTR_WAIT_MS);
  });
  // What answered in time is used and kept; the rest stays unnamed (null) for this read.
  await Promise.race([lookups, deadline]);
  clearTimeout(timer);
  const settled = new Map(answered);
  await upsertSourcePtrNames(db, settled, now);
  const names = new Map(known);
  for (const ip of sourceIps) if (!names.has(ip)) names.set(ip, settled.get(ip) ?? null);
  return names;
}
