import { isIP, isIPv4 } from 'node:net';
import { DomainError } from '../../domain-error.js';
import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import { statusFromFindings } from '../check-result.js';
import { normalizeDomain } from '../normalize-domain.js';
import { organizationalDomain } from '../organizational-domain.js';
import { resolveMailRoute } from '../verify-email/resolve-mail-route.js';
import type { BlacklistConfig } from '../../../config/settings.js';
import { DOMAIN_LISTS, IP_LISTS } from './dnsbl-lists.js';
import { listLiveness, queryDnsbl } from './query-dnsbl.js';
import type { DnsblContext, DnsblListResult } from './query-dnsbl.js';

export interface BlacklistInput {
  /** A domain name or an IPv4 address. */
  readonly input: unknown;
}

/** What was asked: which names and addresses, on how many lists, and why. */
export interface BlacklistChecked {
  readonly description: string;
  readonly domain: string | null;
  readonly mailHosts: readonly string[];
  readonly addresses: readonly string[];
  readonly domainLists: number;
  readonly ipLists: number;
}

export interface BlacklistAnswer extends CheckResultBase {
  readonly input: string;
  readonly inputKind: 'ipv4' | 'domain';
  readonly domain: string | null;
  readonly domainUnicode: string | null;
  readonly checked: BlacklistChecked;
  /** One entry per (list, target) asked. */
  readonly lists: readonly DnsblListResult[];
  readonly listedCount: number;
  /** Entries with a usable answer (listed true or false). */
  readonly checkedCount: number;
  /** Entries with listed null: the list refused, failed or timed out. */
  readonly unansweredCount: number;
}

/** Mail hosts and addresses asked per domain: enough for every real MX set, bounded for the lists' sake. */
const MAX_MAIL_HOSTS = 5;
const MAX_ADDRESSES = 10;

export interface BlacklistContext extends CheckContext, DnsblContext {
  readonly blacklist: BlacklistConfig;
}

async function mailServerAddresses(ctx: BlacklistContext, domain: string): Promise<{ hosts: string[]; addresses: string[]; note: Finding | null }> {
  const route = await resolveMailRoute(ctx.dns, domain);
  // The IP lists' test points (when the shared probe is not fresh), asked beside the hosts' addresses:
  // answered by the time the addresses are, so they add no round trip, and they do not crowd the
  // first round trip (the DKIM scan's).
  if (route.kind === 'mx' || route.kind === 'implicit_mx') for (const list of IP_LISTS) void listLiveness(ctx, list);
  if (route.kind === 'implicit_mx') {
    return { hosts: [domain], addresses: route.addresses.filter((a) => isIPv4(a)).slice(0, MAX_ADDRESSES), note: null };
  }
  if (route.kind !== 'mx') {
    const notes = {
      null_mx: `${domain} publishes a null MX (RFC 7505): it receives no mail, so no mail server address was checked.`,
      no_route: `${domain} has no MX and no address record, so no mail server address was checked.`,
      not_found: `${domain} does not exist in DNS (NXDOMAIN), so no mail server address was checked.`,
      failed: `The mail server lookup for ${domain} failed${route.kind === 'failed' ? ` (${route.detail})` : ''}; its addresses were not checked. This is not a missing record.`,
    } as const;
    return {
      hosts: [],
      addresses: [],
      note: { severity: route.kind === 'failed' ? 'warning' : 'info', code: 'mail_servers_not_checked', message: notes[route.kind] },
    };
  }
  const hosts = [...new Set(route.mx.map((m) => m.exchange.toLowerCase()))].slice(0, MAX_MAIL_HOSTS);
  const answers = await Promise.all(hosts.map((host) => ctx.dns.lookup(host, 'A')));
  const addresses = [...new Set(answers.flatMap((a) => (a.ok ? a.records.map((r) => r.data) : [])))].slice(0, MAX_ADDRESSES);
  const failed = answers.filter((a) => !a.ok && a.failure !== 'nxdomain' && a.failure !== 'nodata');
  const note: Finding | null =
    failed.length > 0
      ? {
          severity: 'warning',
          code: 'mail_servers_not_checked',
          message: `The address lookup failed for ${failed.map((a) => a.name).join(', ')}; those hosts were not checked. This is not a missing record.`,
        }
      : null;
  return { hosts, addresses, note };
}

function parseBlacklistInput(raw: unknown): { kind: 'ipv4'; address: string } | { kind: 'domain'; domain: string; unicode: string | null } {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') throw new DomainError('missing_parameter', 'Send "input": a domain such as example.com or an IPv4 address such as 192.0.2.1.');
  if (isIPv4(text)) return { kind: 'ipv4', address: text };
  // Digits and dots only is an IPv4 address typed wrong (a name's last label is never all digits),
  // so say that rather than "not a domain".
  if (/^\d+(\.\d+)*\.?$/.test(text)) {
    throw new DomainError(
      'invalid_ipv4',
      `"input" is not a valid IPv4 address: "${text.slice(0, 60)}" must be four numbers from 0 to 255 separated by dots, such as 192.0.2.1 (no leading zeros).`,
    );
  }
  if (isIP(text.replace(/^\[|\]$/g, '')) === 6) {
    throw new DomainError('invalid_input', '"input" is an IPv6 address; the blocklists checked here publish IPv4 data only. Pass an IPv4 address or a domain.');
  }
  const { domain, unicode } = normalizeDomain(text, 'input');
  return { kind: 'domain', domain, unicode };
}

/**
 * Which of 30+ maintained blocklists list a domain or an IPv4 address, all asked concurrently.
 * An IPv4 address is asked on the IP lists. A domain is asked, as its registered domain, on the
 * domain lists, and the IPv4 addresses of its mail servers (MX hosts, or the domain itself under
 * RFC 5321's implicit MX) are asked on the IP lists. A list that refuses, errs or times out is
 * `listed: null` with the reason and is never counted as a listing.
 */
export async function checkBlacklist(input: BlacklistInput, ctx: BlacklistContext): Promise<BlacklistAnswer> {
  const parsed = parseBlacklistInput(input.input);
  const findings: Finding[] = [];
  let checked: BlacklistChecked;
  let pending: Promise<DnsblListResult>[];
  if (parsed.kind === 'ipv4') {
    pending = IP_LISTS.map((list) => queryDnsbl(ctx, list, parsed.address));
    checked = {
      description: `The IPv4 address ${parsed.address} on ${IP_LISTS.length} IP blocklists.`,
      domain: null,
      mailHosts: [],
      addresses: [parsed.address],
      domainLists: 0,
      ipLists: IP_LISTS.length,
    };
  } else {
    // URI lists list registered domains (URIBL and SURBL only answer for them).
    const registered = organizationalDomain(parsed.domain) ?? parsed.domain;
    const domainQueries = DOMAIN_LISTS.map((list) => queryDnsbl(ctx, list, registered));
    const mail = await mailServerAddresses(ctx, parsed.domain);
    if (mail.note) findings.push(mail.note);
    pending = [...domainQueries, ...mail.addresses.flatMap((address) => IP_LISTS.map((list) => queryDnsbl(ctx, list, address)))];
    checked = {
      description:
        `The registered domain ${registered} on ${DOMAIN_LISTS.length} domain blocklists, and the IPv4 addresses of its mail servers ` +
        `(${mail.hosts.length > 0 ? mail.hosts.join(', ') : 'none found'}; at most ${MAX_MAIL_HOSTS} hosts and ${MAX_ADDRESSES} addresses) on ${IP_LISTS.length} IP blocklists each.`,
      domain: registered,
      mailHosts: mail.hosts,
      addresses: mail.addresses,
      domainLists: DOMAIN_LISTS.length,
      ipLists: IP_LISTS.length,
    };
  }
  const lists = await Promise.all(pending);

  const weightOf = new Map([...IP_LISTS, ...DOMAIN_LISTS].map((l) => [l.id, l.weight]));
  for (const entry of lists.filter((l) => l.listed === true)) {
    const major = weightOf.get(entry.listId) === 'major';
    findings.push({
      severity: major ? 'error' : 'warning',
      code: major ? 'listed_major' : 'listed_minor',
      message: `${entry.target} is listed on ${entry.list} (${entry.codes.map((c) => c.meaning).join('; ')}). Fix the cause, then ask for removal at ${entry.removalUrl}.`,
    });
  }
  const dead = [...new Map(lists.filter((l) => l.alive === false).map((l) => [l.listId, l])).values()];
  if (dead.length > 0) {
    findings.push({
      severity: 'warning',
      code: 'lists_failed_test_point',
      message: `${dead.map((l) => l.list).join(', ')} failed the RFC 5782 test points (a list must list 127.0.0.2 or "test" and not 127.0.0.1 or "invalid"), so they were not counted: ${dead[0]!.reason}`,
    });
  }
  const unanswered = lists.filter((l) => l.listed === null);
  if (unanswered.length > 0) {
    findings.push({
      severity: 'info',
      code: 'lists_unanswered',
      message: `${unanswered.length} list(s) gave no usable answer (${[...new Set(unanswered.map((l) => l.list))].slice(0, 5).join(', ')}${unanswered.length > 5 ? ', ...' : ''}); they are not counted as listings. Each entry's reason says why.`,
    });
  }
  const listedCount = lists.filter((l) => l.listed === true).length;
  const checkedCount = lists.length - unanswered.length;
  const target = parsed.kind === 'ipv4' ? parsed.address : parsed.domain;
  const status = lists.length > 0 && checkedCount === 0 ? 'error' : statusFromFindings(findings);
  const summary =
    status === 'error'
      ? `None of the ${lists.length} blocklist queries for ${target} gave a usable answer; nothing could be determined.`
      : listedCount === 0
        ? `${target} is not listed on any of the ${checkedCount} blocklist queries that answered${unanswered.length > 0 ? ` (${unanswered.length} gave no usable answer)` : ''}.`
        : `${target} is listed ${listedCount} time(s) across ${checkedCount} blocklist queries that answered.`;
  return {
    status,
    summary,
    findings,
    input: target,
    inputKind: parsed.kind,
    domain: parsed.kind === 'domain' ? parsed.domain : null,
    domainUnicode: parsed.kind === 'domain' ? parsed.unicode : null,
    checked,
    lists,
    listedCount,
    checkedCount,
    unansweredCount: unanswered.length,
  };
}
