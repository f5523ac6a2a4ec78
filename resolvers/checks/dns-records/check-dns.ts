import ipaddr from 'ipaddr.js';
import { DomainError } from '../../domain-error.js';
import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import type { DnsLookup, DnsRecord, DnsRecordType } from '../../../clients/dns/dns-types.js';
import { inspectMxHost, mxRuleFindings } from '../verify-email/mx-host-rules.js';
import { isNullExchange } from '../verify-email/resolve-mail-route.js';
import { normalizeDomain } from '../normalize-domain.js';

export const CHECK_DNS_TYPES = ['MX', 'TXT', 'A', 'AAAA', 'CNAME', 'NS', 'SOA', 'CAA'] as const;
export type CheckDnsType = (typeof CHECK_DNS_TYPES)[number];

export interface CheckDnsInput {
  readonly domain: string;
  /** Case-insensitive; default MX. */
  readonly type?: string | null;
}

export type DnsRecordAnswer =
  | { readonly preference: number; readonly exchange: string; readonly ttl: number }
  | { readonly value: string; readonly strings: readonly string[]; readonly ttl: number }
  | { readonly address: string; readonly ttl: number }
  | { readonly target: string; readonly ttl: number }
  | {
      readonly mname: string;
      readonly rname: string;
      readonly serial: number;
      readonly refresh: number;
      readonly retry: number;
      readonly expire: number;
      readonly minimum: number;
      readonly ttl: number;
    }
  | { readonly flags: number; readonly tag: string; readonly value: string; readonly ttl: number };

export interface CheckDnsAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode?: string;
  readonly type: CheckDnsType;
  /** records: found; nodata: the name exists without this type; nxdomain: the name does not exist; failed: the lookup failed. */
  readonly outcome: 'records' | 'nodata' | 'nxdomain' | 'failed';
  readonly records: readonly DnsRecordAnswer[];
}

function isCheckDnsType(value: string): value is CheckDnsType {
  return (CHECK_DNS_TYPES as readonly string[]).includes(value);
}

function parseType(raw: string | null | undefined): CheckDnsType {
  if (raw == null || raw.trim() === '') return 'MX';
  const type = raw.trim().toUpperCase();
  if (isCheckDnsType(type)) return type;
  throw new DomainError('invalid_type', `"type" must be one of ${CHECK_DNS_TYPES.join(', ')} (not "${raw.slice(0, 20)}"); leave it out for MX.`);
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byAddress = (a: string, b: string): number => {
  const x = ipaddr.parse(a).toByteArray();
  const y = ipaddr.parse(b).toByteArray();
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};
const safe =
  (compare: (a: string, b: string) => number) =>
  (a: string, b: string): number => {
    try {
      return compare(a, b);
    } catch {
      return byText(a, b);
    }
  };

/** Typed and sorted: MX by preference, addresses numerically, names and text alphabetically. */
function shape(type: CheckDnsType, records: readonly DnsRecord[]): DnsRecordAnswer[] {
  switch (type) {
    case 'MX':
      return (records as DnsRecord<'MX'>[])
        .map((r) => ({ preference: r.data.preference, exchange: r.data.exchange, ttl: r.ttl }))
        .sort((a, b) => a.preference - b.preference || byText(a.exchange, b.exchange));
    case 'TXT':
      // A TXT record is one or more character-strings; most users (SPF, DKIM, DMARC) read them joined.
      return (records as DnsRecord<'TXT'>[]).map((r) => ({ value: r.data.join(''), strings: r.data, ttl: r.ttl })).sort((a, b) => byText(a.value, b.value));
    case 'A':
    case 'AAAA':
      return (records as DnsRecord<'A'>[]).map((r) => ({ address: r.data, ttl: r.ttl })).sort((a, b) => safe(byAddress)(a.address, b.address));
    case 'CNAME':
    case 'NS':
      return (records as DnsRecord<'NS'>[]).map((r) => ({ target: r.data, ttl: r.ttl })).sort((a, b) => byText(a.target, b.target));
    case 'SOA':
      return (records as DnsRecord<'SOA'>[]).map((r) => ({ ...r.data, ttl: r.ttl }));
    case 'CAA':
      return (records as DnsRecord<'CAA'>[])
        .map((r) => ({ flags: r.data.flags, tag: r.data.tag, value: r.data.value, ttl: r.ttl }))
        .sort((a, b) => byText(a.tag, b.tag) || byText(a.value, b.value));
  }
}

function describe(type: CheckDnsType, record: DnsRecordAnswer): string {
  if ('exchange' in record) return `${record.preference} ${record.exchange || '.'}`;
  if ('strings' in record) return `"${record.value.length > 60 ? `${record.value.slice(0, 57)}...` : record.value}"`;
  if ('address' in record) return record.address;
  if ('target' in record) return record.target;
  if ('mname' in record) return `${record.mname} serial ${record.serial}`;
  return type === 'CAA' && 'tag' in record ? `${record.tag} "${record.value}"` : '';
}

/** MX hosts inspected per answer: enough for any real MX set, three questions each. */
const MAX_MX_HOSTS = 10;

/**
 * Findings that come from the records themselves, where a common mistake shows in them. For MX,
 * the rules of RFC 7505 section 3 (a null MX stands alone), RFC 2181 section 10.3 (no alias as MX
 * host), RFC 5321 section 5.1 (a host name, not an address) and an address for every host; the hosts'
 * CNAME, A and AAAA are asked at once.
 */
async function recordFindings(dns: DnsLookup, domain: string, type: CheckDnsType, records: readonly DnsRecordAnswer[]): Promise<Finding[]> {
  if (type !== 'MX') return [];
  const mx = records as readonly { preference: number; exchange: string }[];
  const real = mx.filter((r) => !isNullExchange(r.exchange));
  if (real.length === 0) {
    return [{ severity: 'info', code: 'dns_null_mx', message: `${domain} publishes a null MX (RFC 7505): it declares that it accepts no mail.` }];
  }
  const hosts = await Promise.all(real.slice(0, MAX_MX_HOSTS).map((r) => inspectMxHost(dns, r.exchange, r.preference)));
  const findings = mxRuleFindings(domain, hosts, real.length < mx.length, 'dns_');
  const unknown = hosts.filter((h) => h.resolves === null);
  if (unknown.length > 0) {
    findings.push({
      severity: 'info',
      code: 'dns_mx_host_lookup_failed',
      message: `The address lookups of ${unknown.map((h) => h.exchange).join(', ')} failed, so those hosts were not judged; try again.`,
    });
  }
  return findings;
}

export async function checkDns(input: CheckDnsInput, ctx: CheckContext): Promise<CheckDnsAnswer> {
  const type = parseType(input.type);
  // Underscore names (_dmarc.example.com, selector._domainkey...) are normal TXT owners.
  const { domain, unicode } = normalizeDomain(input.domain, 'domain', { allowUnderscore: true });
  const echo = { domain, ...(unicode ? { domainUnicode: unicode } : {}), type };
  const answer = await ctx.dns.lookup(domain, type as DnsRecordType);

  if (!answer.ok) {
    if (answer.failure === 'nxdomain') {
      // RFC 6604: at the end of a CNAME chain, NXDOMAIN is about the chain's last target, which the detail names.
      const alias = answer.canonical;
      return alias
        ? {
            ...echo,
            outcome: 'nxdomain',
            records: [],
            status: 'fail',
            summary: `${domain} is an alias (CNAME) of ${alias}, which does not exist in DNS (NXDOMAIN), so ${domain} has no ${type} records.`,
            findings: [
              {
                severity: 'error',
                code: 'dns_cname_target_nxdomain',
                message: `The CNAME chain from ${domain} ends at ${alias}, which does not exist (NXDOMAIN). Point the CNAME at a name that exists, or create ${alias}.`,
              },
            ],
          }
        : {
            ...echo,
            outcome: 'nxdomain',
            records: [],
            status: 'fail',
            summary: `${domain} does not exist in DNS (NXDOMAIN), so it has no ${type} records.`,
            findings: [
              {
                severity: 'error',
                code: 'dns_nxdomain',
                message: `${domain} does not exist (NXDOMAIN). Check the spelling, or create the name at your DNS provider.`,
              },
            ],
          };
    }
    if (answer.failure === 'nodata') {
      return {
        ...echo,
        outcome: 'nodata',
        records: [],
        status: 'warn',
        summary: `${domain} exists but has no ${type} records.`,
        findings: [{ severity: 'warning', code: 'dns_no_records', message: `${domain} exists but publishes no ${type} record.` }],
      };
    }
    return {
      ...echo,
      outcome: 'failed',
      records: [],
      status: 'error',
      summary: `The ${type} lookup for ${domain} failed (${answer.failure}); this says nothing about whether records exist, try again.`,
      findings: [{ severity: 'error', code: 'dns_lookup_failed', message: `Looking up ${type} ${domain} failed: ${answer.detail}.` }],
    };
  }

  const records = shape(type, answer.records);
  const findings = await recordFindings(ctx.dns, domain, type, records);
  const shown = records
    .slice(0, 5)
    .map((r) => describe(type, r))
    .join(', ');
  return {
    ...echo,
    outcome: 'records',
    records,
    findings,
    status: findings.some((f) => f.severity === 'error') ? 'fail' : findings.some((f) => f.severity === 'warning') ? 'warn' : 'pass',
    summary: `${domain} has ${records.length} ${type} record${records.length > 1 ? 's' : ''}: ${shown}${records.length > 5 ? ', ...' : ''}.`,
  };
}
