import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import { SEGMENT_ESP_LIMIT, parseBulkDomains } from '../bulk-input.js';
import { matchSuffixRule } from '../nameservers/match-host-suffix.js';
import { resolveMailRoute } from '../verify-email/resolve-mail-route.js';
import { MAILBOX_PROVIDERS, SECURITY_GATEWAYS, SPF_PROVIDER_HINTS } from './mx-provider-table.js';

export interface SegmentEspInput {
  /** Comma-separated string or list of strings; at most SEGMENT_ESP_LIMIT distinct domains. */
  readonly domains: unknown;
}

export type EspSegment = 'google' | 'microsoft' | 'security_gateway' | 'other' | 'unresolved';

export interface EspDomainResult {
  readonly domain: string;
  readonly domainUnicode: string | null;
  readonly segment: EspSegment;
  /** Mailbox provider or gateway name; null for other and unresolved. */
  readonly provider: string | null;
  /** The gateway's id when segment is security_gateway. */
  readonly gateway: string | null;
  /** Behind a gateway: the provider the domain's SPF includes point at, if any. */
  readonly providerBehindGateway: 'google' | 'microsoft' | null;
  /** MX hosts, lowest preference first (the domain itself for an implicit MX). */
  readonly mxHosts: readonly string[];
  readonly reason: string | null;
}

export interface SegmentEspAnswer extends CheckResultBase {
  readonly counts: PerSegment<number>;
  /** Domain names per segment, in input order. */
  readonly segments: PerSegment<readonly string[]>;
  readonly results: readonly EspDomainResult[];
}

/** SPF (RFC 7208) include targets of the domain's v=spf1 record; an empty list when none or on failure. */
async function spfIncludes(ctx: CheckContext, domain: string): Promise<string[]> {
  const txt = await ctx.dns.lookup(domain, 'TXT');
  if (!txt.ok) return [];
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

async function segmentDomain(ctx: CheckContext, domain: string, unicode: string | null, failed: Set<string>): Promise<EspDomainResult> {
  const base = { domain, domainUnicode: unicode, gateway: null, providerBehindGateway: null };
  const route = await resolveMailRoute(ctx.dns, domain);
  if (route.kind === 'failed') failed.add(domain);
  if (route.kind !== 'mx') {
    const reasons = {
      null_mx: 'The domain publishes a null MX (RFC 7505): it takes no mail.',
      implicit_mx: "No MX records; mail would go to the domain's own address (implicit MX, RFC 5321 section 5.1).",
      no_route: 'No MX and no address records: the domain takes no mail.',
      not_found: 'The domain does not exist in DNS (NXDOMAIN).',
      failed: `The MX lookup failed${route.kind === 'failed' ? ` (${route.detail})` : ''}; this is not a missing record.`,
    } as const;
    return {
      ...base,
      segment: route.kind === 'implicit_mx' ? 'other' : 'unresolved',
      provider: null,
      mxHosts: route.kind === 'implicit_mx' ? [domain] : [],
      reason: reasons[route.kind],
    };
  }
  const hosts = [...new Set(route.mx.map((m) => m.exchange.toLowerCase()))];
  // The most preferred host is where mail lands; backups behind it do not change the segment.
  const primary = hosts[0] ?? '';
  const gateway = matchSuffixRule(primary, SECURITY_GATEWAYS);
  if (gateway) {
    const includes = await spfIncludes(ctx, domain);
    const hint = SPF_PROVIDER_HINTS.find((h) => includes.includes(h.include))?.provider ?? null;
    return {
      ...base,
      segment: 'security_gateway',
      provider: gateway.name,
      gateway: gateway.id,
      providerBehindGateway: hint,
      mxHosts: hosts,
      reason: hint
        ? `Mail passes ${gateway.name} first; the SPF include of ${hint === 'google' ? 'Google' : 'Microsoft'} suggests the mailboxes are there.`
        : null,
    };
  }
  const provider = matchSuffixRule(primary, MAILBOX_PROVIDERS);
  if (provider) return { ...base, segment: provider.id, provider: provider.name, mxHosts: hosts, reason: null };
  return { ...base, segment: 'other', provider: null, mxHosts: hosts, reason: null };
}

const SEGMENTS: readonly EspSegment[] = ['google', 'microsoft', 'security_gateway', 'other', 'unresolved'];

/** Each segment's key in the answer's counts and segments: the GraphQL field's name (EspCounts, EspSegments). */
const SEGMENT_KEYS = {
  google: 'google',
  microsoft: 'microsoft',
  security_gateway: 'securityGateway',
  other: 'other',
  unresolved: 'unresolved',
} as const satisfies Record<EspSegment, string>;

/** One value per segment, keyed by its field name. */
export type PerSegment<V> = { readonly [S in EspSegment as (typeof SEGMENT_KEYS)[S]]: V };

/** One value per segment, in SEGMENTS order. */
function perSegment<V>(value: (segment: EspSegment) => V): PerSegment<V> {
  return {
    google: value('google'),
    microsoft: value('microsoft'),
    securityGateway: value('security_gateway'),
    other: value('other'),
    unresolved: value('unresolved'),
  };
}

/**
 * Splits domains by the mailbox provider their MX records point at: Google, Microsoft, a named
 * security gateway (with the provider behind it hinted by SPF includes), other, or unresolved.
 * One MX question per distinct domain (plus A/AAAA when it has no MX, and TXT behind a gateway),
 * all through the request's DnsLookup under its concurrency cap.
 */
export async function segmentEsp(input: SegmentEspInput, ctx: CheckContext): Promise<SegmentEspAnswer> {
  const items = parseBulkDomains(input.domains, 'domains', SEGMENT_ESP_LIMIT);
  const failedDomains = new Set<string>();
  const results = await Promise.all(
    items.map(
      (item): Promise<EspDomainResult> =>
        item.ok
          ? segmentDomain(ctx, item.domain, item.unicode, failedDomains)
          : Promise.resolve<EspDomainResult>({
              domain: item.input,
              domainUnicode: null,
              segment: 'unresolved',
              provider: null,
              gateway: null,
              providerBehindGateway: null,
              mxHosts: [],
              reason: item.reason,
            }),
    ),
  );
  const segments = perSegment((s) => results.filter((r) => r.segment === s).map((r) => r.domain));
  const counts = perSegment((s) => segments[SEGMENT_KEYS[s]].length);
  const failed = results.filter((r) => failedDomains.has(r.domain));
  const findings: Finding[] = failed.map((r) => ({ severity: 'warning', code: 'lookup_failed', message: `${r.domain}: ${r.reason}` }));
  const status = failed.length > 0 && failed.length === results.length ? 'error' : failed.length > 0 ? 'warn' : 'pass';
  const summary =
    status === 'error'
      ? `The MX lookups failed for all ${results.length} domain(s); nothing could be segmented.`
      : `${results.length} domain(s): ${SEGMENTS.map((s) => `${counts[SEGMENT_KEYS[s]]} ${s.replace('_', ' ')}`).join(', ')}.`;
  return { status, summary, findings, counts, segments, results };
}
