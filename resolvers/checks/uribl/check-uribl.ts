import type { CheckResultBase, Finding } from '../check-result.js';
import { statusFromFindings } from '../check-result.js';
import { URIBL_LIMIT, parseBulkDomains } from '../bulk-input.js';
import { organizationalDomain } from '../organizational-domain.js';
import type { BlacklistContext } from '../blacklist/check-blacklist.js';
import { DOMAIN_LISTS } from '../blacklist/dnsbl-lists.js';
import { queryDnsbl } from '../blacklist/query-dnsbl.js';
import type { DnsblListResult } from '../blacklist/query-dnsbl.js';

export interface UriblInput {
  /** Comma-separated string or list of strings; at most URIBL_LIMIT (100) distinct domains (SPEC 4.1). */
  readonly domains: unknown;
}

export interface UriblDomainResult {
  readonly domain: string;
  readonly domainUnicode: string | null;
  /** The registered domain asked (URI lists list registered domains). */
  readonly queried: string | null;
  /** true when any list lists it; false when none does and at least one answered; null when no list gave a usable answer. */
  readonly listed: boolean | null;
  readonly lists: readonly Omit<DnsblListResult, 'target' | 'kind'>[];
  readonly reason: string | null;
}

export interface UriblAnswer extends CheckResultBase {
  readonly results: readonly UriblDomainResult[];
  readonly listedCount: number;
}

function strip({ target: _target, kind: _kind, ...rest }: DnsblListResult): Omit<DnsblListResult, 'target' | 'kind'> {
  return rest;
}

/**
 * Each domain (a tracking or landing domain, typically) on the URI blocklists: Spamhaus DBL, URIBL
 * (black/grey/red bits), SURBL (phishing/malware/abuse/cracked bits) and smaller lists. Refusal codes
 * (URIBL 127.0.0.1, SURBL's blocked bit, Spamhaus 127.255.255.x) are `listed: null`, never a listing.
 */
export async function checkUribl(input: UriblInput, ctx: BlacklistContext): Promise<UriblAnswer> {
  const items = parseBulkDomains(input.domains, 'domains', URIBL_LIMIT);
  const results = await Promise.all(
    items.map(async (item): Promise<UriblDomainResult> => {
      if (!item.ok) return { domain: item.input, domainUnicode: null, queried: null, listed: null, lists: [], reason: item.reason };
      const queried = organizationalDomain(item.domain) ?? item.domain;
      const lists = await Promise.all(DOMAIN_LISTS.map((list) => queryDnsbl(ctx, list, queried)));
      const listed = lists.some((l) => l.listed === true) ? true : lists.some((l) => l.listed === false) ? false : null;
      return {
        domain: item.domain,
        domainUnicode: item.unicode,
        queried,
        listed,
        lists: lists.map(strip),
        reason: listed === null ? "No list gave a usable answer; see each list's reason." : null,
      };
    }),
  );

  const findings: Finding[] = [];
  for (const r of results) {
    if (r.listed === true) {
      const on = r.lists.filter((l) => l.listed === true);
      findings.push({
        severity: 'error',
        code: 'uri_listed',
        message: `${r.domain} is listed on ${on.map((l) => `${l.list} (${l.codes.map((c) => c.meaning).join('; ')})`).join(', ')}: mail that links to it goes to spam. Request removal at ${on.map((l) => l.removalUrl).join(', ')}.`,
      });
    } else if (r.listed === null) {
      findings.push({ severity: 'warning', code: r.queried ? 'no_usable_answer' : 'invalid_domain', message: `${r.domain}: ${r.reason}` });
    }
  }
  const dead = [
    ...new Map(
      results
        .flatMap((r) => r.lists)
        .filter((l) => l.alive === false)
        .map((l) => [l.listId, l]),
    ).values(),
  ];
  if (dead.length > 0) {
    findings.push({
      severity: 'warning',
      code: 'lists_failed_test_point',
      message: `${dead.map((l) => l.list).join(', ')} failed the RFC 5782 test points (a domain list must list "test" and not "invalid"), so they were not counted: ${dead[0]!.reason}`,
    });
  }
  const listedCount = results.filter((r) => r.listed === true).length;
  const allUnanswered = results.every((r) => r.listed === null && r.queried !== null);
  const status = allUnanswered ? 'error' : statusFromFindings(findings);
  const summary =
    status === 'error'
      ? 'No URI blocklist gave a usable answer for any domain; nothing could be determined.'
      : `${listedCount} of ${results.length} domain(s) are listed on a URI blocklist.`;
  return { status, summary, findings, results, listedCount };
}
