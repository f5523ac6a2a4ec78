import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CheckContext } from '../checks/check-context.js';
import { isMissing } from '../../clients/dns/dns-types.js';
import { checkHost } from '../checks/spf/check-host.js';
import { parseSpfIp } from '../checks/spf/spf-ip.js';
import { matchSuffixRule } from '../checks/nameservers/match-host-suffix.js';
import { nameSources } from '../reports/source-ptr-names.js';
import { SENDING_SERVICES } from './sending-services.js';
import type { FailingSource } from './ramp-readiness.js';

/** At most this many failing sources are examined (PTR, SPF) per read, most failed messages first; the rest are listed unexamined. */
export const RAMP_SOURCES_EXAMINED = 50;

/** The SPF record's include targets, or null when the TXT lookup failed (not: when there is no SPF, which is []). */
async function spfIncludeTargets(checks: CheckContext, domain: string): Promise<string[] | null> {
  const txt = await checks.dns.lookup(domain, 'TXT');
  if (!txt.ok) return isMissing(txt) ? [] : null;
  const spf = txt.records.map((r) => r.data.join('')).find((t) => /^v=spf1(\s|$)/i.test(t));
  if (!spf) return [];
  return spf
    .split(/\s+/)
    .filter((t) => /^[+?~-]?include:/i.test(t))
    .map((t) =>
      t
        .slice(t.indexOf(':') + 1)
        .toLowerCase()
        .replace(/\.$/, ''),
    );
}

/**
 * Names each failing source (forward-confirmed PTR, the sending service of that name) and tells
 * whether it is one of the customer's own senders: the domain's SPF passes the address (check_host,
 * RFC 7208), or the address belongs to a service whose include the SPF carries. A lookup that
 * failed leaves ownSender null: unknown, never taken for "not ours".
 */
export async function identifyFailingSources(
  db: Kysely<Database>,
  checks: CheckContext,
  domain: string,
  failing: readonly { readonly sourceIp: string; readonly failed: number }[],
): Promise<FailingSource[]> {
  const ordered = [...failing].sort((a, b) => b.failed - a.failed || (a.sourceIp < b.sourceIp ? -1 : 1));
  const examined = ordered.slice(0, RAMP_SOURCES_EXAMINED);
  const [names, includes] = await Promise.all([
    nameSources(
      db,
      checks.dns,
      examined.map((s) => s.sourceIp),
      checks.now(),
    ),
    spfIncludeTargets(checks, domain),
  ]);
  const identified = await Promise.all(
    examined.map(async (source): Promise<FailingSource> => {
      const ptr = names.get(source.sourceIp) ?? null;
      const service = ptr ? matchSuffixRule(ptr, SENDING_SERVICES) : null;
      return {
        sourceIp: source.sourceIp,
        ptr,
        service: service?.name ?? null,
        failed: source.failed,
        ownSender: await isOwnSender(checks, domain, source.sourceIp, service?.spfIncludes ?? [], includes),
      };
    }),
  );
  const rest = ordered
    .slice(RAMP_SOURCES_EXAMINED)
    .map((s): FailingSource => ({ sourceIp: s.sourceIp, ptr: null, service: null, failed: s.failed, ownSender: null }));
  return [...identified, ...rest];
}

async function isOwnSender(
  checks: CheckContext,
  domain: string,
  address: string,
  serviceIncludes: readonly string[],
  includes: readonly string[] | null,
): Promise<boolean | null> {
  if (includes === null) return null;
  if (serviceIncludes.some((i) => includes.includes(i))) return true;
  const ip = parseSpfIp(address);
  if (!ip) return false;
  const evaluated = await checkHost({ ip, domain, sender: `postmaster@${domain}`, helo: domain }, { dns: checks.dns, now: checks.now });
  if (evaluated.result === 'pass') return true;
  return evaluated.result === 'temperror' ? null : false;
}
