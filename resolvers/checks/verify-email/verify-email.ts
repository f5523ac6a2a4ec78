import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import { z } from 'zod';
import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import type { DnsLookup, MxRecord } from '../../../clients/dns/dns-types.js';
import { isMissing } from '../../../clients/dns/dns-types.js';
import { mxRuleFindings } from './mx-host-rules.js';
import type { MxHostInspection } from './mx-host-rules.js';
import { VERIFY_EMAIL_LIMIT, parseBulkInput } from '../bulk-input.js';
import { checkEmailSyntax } from './email-syntax.js';
import { resolveMailRoute } from './resolve-mail-route.js';
import type { MailRoute } from './resolve-mail-route.js';

// role-based-email-addresses is CommonJS without types: an array of local parts (checked once, at load).
const roleList = z.array(z.string()).parse(createRequire(import.meta.url)('role-based-email-addresses'));
const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set(roleList.map((r) => r.toLowerCase()));
const DISPOSABLE_DOMAINS: ReadonlySet<string> = disposableEmailBlocklistSet();

export interface VerifyEmailInput {
  /** Comma-separated string or list of strings; at most VERIFY_EMAIL_LIMIT distinct addresses. */
  readonly emails: unknown;
}

export type EmailReason =
  | 'deliverable'
  | 'invalid_syntax'
  | 'null_mx'
  | 'no_mail_route'
  | 'domain_not_found'
  | 'mail_hosts_do_not_resolve'
  | 'dns_lookup_failed'
  | 'mail_hosts_not_looked_up';

export interface EmailResult {
  readonly email: string;
  /** true: DNS says mail can be delivered; false: it cannot; null: a lookup failed, so we cannot tell. */
  readonly valid: boolean | null;
  readonly syntaxValid: boolean;
  readonly reason: EmailReason;
  readonly detail: string;
  readonly domain: string | null;
  readonly domainUnicode: string | null;
  /** MX records, lowest preference first; for an implicit MX, the domain itself at preference 0. */
  readonly mx: readonly MxRecord[];
  /** No MX, so mail goes to the domain's own A/AAAA address (RFC 5321 section 5.1). */
  readonly implicitMx: boolean;
  /** The RFC 7505 null MX: the domain states it takes no mail. */
  readonly nullMx: boolean;
  /** The domain (or a parent of it) is a disposable-mail provider. */
  readonly disposable: boolean;
  /** The local part names a role (info, sales, support...) rather than a person. */
  readonly role: boolean;
  /**
   * Broken MX rules of the domain, each saying what to change: a null MX beside other MX records
   * (RFC 7505 section 3), an MX host that is a CNAME (RFC 2181 section 10.3), an IP address as MX
   * (RFC 5321 section 5.1), an MX host without an address. Only the most preferred hosts are judged.
   */
  readonly mxIssues: readonly Finding[];
}

export interface VerifyEmailAnswer extends CheckResultBase {
  readonly results: readonly EmailResult[];
  readonly counts: { readonly valid: number; readonly invalid: number; readonly unknown: number; readonly disposable: number; readonly role: number };
  readonly catchAllNote: string;
}

const CATCH_ALL_NOTE =
  'No SMTP connection is opened, so a mailbox is not confirmed to exist: catch-all domains and ' + 'deleted mailboxes on a live domain come back valid.';

/** The domain or any parent of it (mail.mailinator.com -> mailinator.com) is on the disposable list. */
export function isDisposableDomain(domain: string): boolean {
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i += 1) {
    if (DISPOSABLE_DOMAINS.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/** Role local parts, ignoring a +tag (sales+eu@ is still sales@). */
export function isRoleLocalPart(local: string): boolean {
  return ROLE_LOCAL_PARTS.has(local.toLowerCase().split('+')[0] ?? '');
}

/** A domain's verdict, computed once per distinct domain whatever the number of its addresses. */
interface DomainVerdict {
  readonly route: MailRoute;
  readonly valid: boolean | null;
  readonly reason: EmailReason;
  readonly detail: string;
  readonly issues: readonly Finding[];
}

/**
 * MX hosts looked up per domain, most preferred first: a sender tries them in that order, real MX
 * sets have one to five hosts, and a crafted set of hundreds must not turn one address into
 * hundreds of questions (issue 10, item 1).
 */
export const MAX_MX_HOSTS_PER_DOMAIN = 5;

/** What the lookups of one MX host found, whatever its spelling or preference in an MX set. */
type HostLookup = Pick<MxHostInspection, 'cname_target' | 'addresses' | 'resolves'>;

/** Per call: each MX host's lookups by lower-cased name, so a host shared by many domains is inspected once. */
type HostLookups = Map<string, Promise<HostLookup>>;

async function lookUpHost(dns: DnsLookup, exchange: string): Promise<HostLookup> {
  // An alias shows in the A answer's CNAME chain: no CNAME question is needed.
  const a = await dns.lookup(exchange, 'A');
  if (a.ok) return { cname_target: a.canonical ?? null, addresses: a.records.map((r) => r.data), resolves: true };
  const aaaa = await dns.lookup(exchange, 'AAAA');
  const target = a.canonical ?? aaaa.canonical ?? null;
  const addresses = aaaa.ok ? aaaa.records.map((r) => r.data) : [];
  const resolves = addresses.length > 0 ? true : isMissing(a) && isMissing(aaaa) ? false : null;
  return { cname_target: target, addresses, resolves };
}

/**
 * The most preferred hosts, each asked A, and AAAA only when it has no A (an IPv6-only host is
 * still a mail host). Address literals are not looked up.
 */
async function inspectHosts(dns: DnsLookup, mx: readonly MxRecord[], hostLookups: HostLookups): Promise<MxHostInspection[]> {
  const seen = new Set<string>();
  const unique = mx
    .filter((m) => {
      const key = m.exchange.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_MX_HOSTS_PER_DOMAIN);
  return Promise.all(
    unique.map(async ({ exchange, preference }): Promise<MxHostInspection> => {
      if (isIP(exchange) !== 0) return { exchange, preference, is_address: true, cname_target: null, addresses: [], resolves: false };
      const key = exchange.toLowerCase();
      let pending = hostLookups.get(key);
      if (!pending) {
        pending = lookUpHost(dns, exchange);
        hostLookups.set(key, pending);
      }
      return { exchange, preference, is_address: false, ...(await pending) };
    }),
  );
}

async function verifyDomain(dns: DnsLookup, domain: string, hostLookups: HostLookups): Promise<DomainVerdict> {
  const route = await resolveMailRoute(dns, domain);
  const plain = (valid: boolean | null, reason: EmailReason, detail: string): DomainVerdict => ({ route, valid, reason, detail, issues: [] });
  switch (route.kind) {
    case 'null_mx':
      return plain(false, 'null_mx', `${domain} publishes a null MX (RFC 7505): it accepts no mail.`);
    case 'no_route':
      return plain(false, 'no_mail_route', `${domain} has no MX and no A/AAAA record, so mail cannot be delivered.`);
    case 'not_found':
      return plain(false, 'domain_not_found', `${domain} does not exist in DNS (NXDOMAIN).`);
    case 'failed':
      return plain(null, 'dns_lookup_failed', `The lookup failed, so deliverability is unknown (not a missing record): ${route.detail}.`);
    case 'implicit_mx':
      return plain(true, 'deliverable', `${domain} has no MX; mail goes to its own address (implicit MX, RFC 5321 section 5.1).`);
    case 'mx': {
      const hosts = await inspectHosts(dns, route.mx, hostLookups);
      const issues = mxRuleFindings(domain, hosts, route.with_null_mx);
      const verdict = (valid: boolean | null, reason: EmailReason, detail: string): DomainVerdict => ({
        route,
        valid,
        reason,
        issues,
        detail: issues.length > 0 ? `${detail} ${issues.length} MX problem(s): see mx_issues.` : detail,
      });
      if (hosts.some((h) => h.resolves === true)) return verdict(true, 'deliverable', `${domain} has MX records whose hosts resolve.`);
      if (hosts.some((h) => h.resolves === null))
        return verdict(null, 'dns_lookup_failed', `The address lookups of ${domain}'s MX hosts failed, so deliverability is unknown.`);
      const skipped = new Set(route.mx.map((m) => m.exchange.toLowerCase())).size - hosts.length;
      if (skipped > 0) {
        return verdict(
          null,
          'mail_hosts_not_looked_up',
          `None of the ${hosts.length} most preferred MX hosts of ${domain} has an address, and its ${skipped} other host(s) were not looked up (at most ${MAX_MX_HOSTS_PER_DOMAIN} per domain); point the MX at hosts that exist.`,
        );
      }
      return verdict(false, 'mail_hosts_do_not_resolve', `None of ${domain}'s MX hosts has an address record.`);
    }
  }
}

/**
 * Addresses handled between two turns of the event loop. A call holds up to VERIFY_EMAIL_LIMIT
 * addresses, and their syntax checks and answers in one synchronous stretch held every other
 * request up to a second (issue 32, item 2): in chunks, the longest stretch is one chunk's work.
 */
export const VERIFY_EMAIL_CHUNK = 250;

/** Lets the event loop run its other work (timers, sockets, other requests) before the next chunk. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `work` on each item, in chunks of VERIFY_EMAIL_CHUNK with a turn of the event loop between them. */
async function inChunks<T, R>(items: readonly T[], work: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  for (const [i, item] of items.entries()) {
    if (i > 0 && i % VERIFY_EMAIL_CHUNK === 0) await yieldToLoop();
    out.push(work(item));
  }
  return out;
}

const invalidSyntax = (email: string, message: string): EmailResult => ({
  email,
  valid: false,
  syntaxValid: false,
  reason: 'invalid_syntax',
  detail: message,
  domain: null,
  domainUnicode: null,
  mx: [],
  implicitMx: false,
  nullMx: false,
  disposable: false,
  role: false,
  mxIssues: [],
});

/**
 * Per address: syntax (email-syntax.ts), the domain's mail route from DNS (MX, RFC 7505 null MX,
 * RFC 5321 implicit MX), whether the domain is disposable and whether the local part is a role.
 * Each distinct domain is resolved once and each distinct MX host inspected once per call; every
 * lookup goes through the request's DnsLookup, which de-duplicates (name, type) questions and keeps
 * at most DNS_CONCURRENCY in flight. No SMTP. The per-address work runs in chunks that yield to
 * the event loop (VERIFY_EMAIL_CHUNK).
 */
export async function verifyEmail(input: VerifyEmailInput, ctx: CheckContext): Promise<VerifyEmailAnswer> {
  const emails = parseBulkInput(input.emails, 'emails', VERIFY_EMAIL_LIMIT, 'ana@example.com,bo@example.org');
  const verdicts = new Map<string, Promise<DomainVerdict>>();
  const disposable = new Map<string, boolean>();
  const hostLookups: HostLookups = new Map();
  // Syntax first, chunk by chunk; a domain's lookups start as soon as its first address is read.
  const checked = await inChunks(emails, (email) => {
    const syntax = checkEmailSyntax(email);
    if (syntax.valid && !verdicts.has(syntax.domain)) {
      const pending = verifyDomain(ctx.dns, syntax.domain, hostLookups);
      // Awaited below; a rejection must not count as unhandled while later chunks are read.
      pending.catch(() => undefined);
      verdicts.set(syntax.domain, pending);
      disposable.set(syntax.domain, isDisposableDomain(syntax.domain));
    }
    return { email, syntax };
  });
  const settled = new Map<string, DomainVerdict>();
  await Promise.all([...verdicts].map(async ([domain, pending]) => settled.set(domain, await pending)));
  const results = await inChunks(checked, ({ email, syntax }): EmailResult => {
    if (!syntax.valid) return invalidSyntax(email, syntax.message);
    const verdict = settled.get(syntax.domain);
    // Every valid address's domain was asked above, so its verdict is there.
    if (!verdict) throw new Error(`verify-email: no verdict for ${syntax.domain}`);
    const route = verdict.route;
    return {
      email,
      valid: verdict.valid,
      syntaxValid: true,
      reason: verdict.reason,
      detail: verdict.detail,
      domain: syntax.domain,
      domainUnicode: syntax.domainUnicode,
      mx: route.kind === 'mx' ? route.mx : route.kind === 'implicit_mx' ? [{ preference: 0, exchange: syntax.domain }] : [],
      implicitMx: route.kind === 'implicit_mx',
      nullMx: route.kind === 'null_mx',
      disposable: disposable.get(syntax.domain) === true,
      role: isRoleLocalPart(syntax.local),
      mxIssues: verdict.issues,
    };
  });

  const counts = {
    valid: results.filter((r) => r.valid === true).length,
    invalid: results.filter((r) => r.valid === false).length,
    unknown: results.filter((r) => r.valid === null).length,
    disposable: results.filter((r) => r.disposable).length,
    role: results.filter((r) => r.role).length,
  };
  const findings: Finding[] = [{ severity: 'info', code: 'no_smtp_check', message: CATCH_ALL_NOTE }];
  if (counts.invalid > 0)
    findings.push({
      severity: 'warning',
      code: 'invalid_addresses',
      message: `${counts.invalid} address(es) cannot receive mail; remove them before sending.`,
    });
  if (counts.disposable > 0)
    findings.push({ severity: 'warning', code: 'disposable_addresses', message: `${counts.disposable} address(es) use a disposable-mail provider.` });
  if (counts.role > 0)
    findings.push({
      severity: 'info',
      code: 'role_addresses',
      message: `${counts.role} address(es) are role addresses (info@, sales@...), which complain and bounce more than personal ones.`,
    });
  const misconfigured = results.filter((r) => r.mxIssues.length > 0);
  if (misconfigured.length > 0) {
    const domains = [...new Set(misconfigured.map((r) => r.domain))];
    findings.push({
      severity: 'warning',
      code: 'mx_misconfigured',
      message: `${misconfigured.length} address(es) on ${domains.length} domain(s) (${domains.slice(0, 5).join(', ')}${domains.length > 5 ? ', ...' : ''}) have MX records that break the MX rules; each result's mx_issues says what the domain owner should change.`,
    });
  }
  if (counts.unknown > 0)
    findings.push({
      severity: 'warning',
      code: 'lookup_failed',
      message: `${counts.unknown} address(es) could not be checked because a DNS lookup failed; try them again.`,
    });
  const status = counts.unknown > 0 && counts.unknown === results.length ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warn' : 'pass';
  const summary =
    status === 'error'
      ? `DNS lookups failed for every address; nothing could be verified.`
      : `${counts.valid} of ${results.length} address(es) can receive mail, ${counts.invalid} cannot, ${counts.unknown} unknown. No SMTP check, so catch-all domains count as valid.`;
  return { status, summary, findings, results, counts, catchAllNote: CATCH_ALL_NOTE };
}
