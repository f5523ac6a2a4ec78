import { DomainError, operation, sentence } from '../../domain-error.js';
import { spfTermKey, spfTerms } from '../setup/merge-spf.js';
import { reportUriAddress } from '../setup/merge-dmarc.js';
import type { DnsRecord } from '../../../clients/dns-publishing/dns-publisher.js';

const POLICY_RANK: Record<string, number> = { none: 0, quarantine: 1, reject: 2 };
/** The way out of a refused publish: check the domain's setup again and apply the record the check shows. */
const again = (domain: string) =>
  sentence`check the setup again (${operation('check_domain_setup', { domain })}) and apply the record it shows. Nothing was changed.`;

/** No record is planned at a name that holds a CNAME: the server would refuse it, or the alias (a hosted policy) would be lost. */
export function refuseBesideAlias(record: DnsRecord, present: readonly DnsRecord[]): void {
  const alias = present.find((r) => r.type === 'CNAME' && r.name === record.name);
  if (alias)
    throw new DomainError(
      'cname_at_name',
      `${record.name} is an alias (CNAME) of ${alias.value} in the zone, so no ${record.type} record is published beside it, and the alias is not replaced (it may be a policy hosted by a service). Change the record where ${alias.value} is hosted, or remove the alias yourself and apply again. Nothing was changed.`,
    );
}

/**
 * A TXT replace keeps everything of the customer's: every SPF term of each replaced record (the
 * `all` aside, which a combined record holds once), or, for DMARC, a policy (p, sp) no lower and
 * every aggregate-report address.
 */
export function refuseLosingCustomerRecords(tag: string, record: DnsRecord, replaced: readonly DnsRecord[]): void {
  if (tag === 'v=spf1') {
    const kept = new Set(spfTerms(record.value).map(spfTermKey));
    for (const old of replaced) {
      const lost = spfTerms(old.value).filter((t) => !/^[-+~?]?all$/i.test(t) && !kept.has(spfTermKey(t)));
      if (lost.length > 0)
        throw new DomainError(
          'zone_changed',
          sentence`The zone holds the SPF record "${old.value}" at ${record.name}; publishing "${record.value}" would drop ${lost.join(', ')}, so it is not published: ${again(record.name)}`,
        );
    }
  }
  if (tag === 'v=dmarc1') {
    const next = dmarcTags(record.value);
    for (const old of replaced) {
      const was = dmarcTags(old.value);
      const lower = (['p', 'sp'] as const).find((t) => (POLICY_RANK[next[t] ?? next.p ?? 'none'] ?? 0) < (POLICY_RANK[was[t] ?? was.p ?? 'none'] ?? 0));
      const addresses = new Set((next.rua ?? '').split(',').map(reportUriAddress));
      const dropped = (was.rua ?? '')
        .split(',')
        .filter((u) => u.trim() !== '')
        .filter((u) => !addresses.has(reportUriAddress(u)));
      if (lower || dropped.length > 0)
        throw new DomainError(
          'zone_changed',
          sentence`The zone holds the DMARC record "${old.value}" at ${record.name}; publishing "${record.value}" would ${lower ? `lower ${lower}=${was[lower] ?? was.p}` : `drop the report address ${dropped.join(', ')}`}, so it is not published: ${again(record.name.replace(/^_dmarc\./, ''))}`,
        );
    }
  }
}

function dmarcTags(text: string): Record<string, string | undefined> {
  const tags: Record<string, string> = {};
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at > 0)
      tags[part.slice(0, at).trim().toLowerCase()] = part
        .slice(at + 1)
        .trim()
        .toLowerCase();
  }
  return tags;
}
