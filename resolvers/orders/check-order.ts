import { listDomainsOnOrders } from '../../db/domains.js';
import { getDomain } from 'tldts';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { normalizeDomain } from '../checks/normalize-domain.js';
import { checkProviderDomain } from '../checks/provider-domain/check-provider-domain.js';
import { ORDER_LIMITS, type OrderDomainInput, type OrderInput, type OrderMailboxInput } from './order-input.js';
import { groupProblems, type DomainProblems, type OrderIssue } from './order-problems.js';
import { readVerificationTxt, recordVerified, unverifiedSentence, verificationToken, verifiedDomains, type TxtReading } from './domain-verification.js';
import { verificationRecord } from './verification-record.js';

export interface CheckedMailbox {
  readonly firstName: string;
  readonly lastName: string;
  readonly localPart: string;
}
export interface CheckedDomain {
  readonly domain: string;
  readonly forwardTo: string | null;
  readonly mailboxes: readonly CheckedMailbox[];
}

export interface CheckedOrder {
  readonly domains: readonly CheckedDomain[];
  readonly mailboxCount: number;
  /** Warnings only: a check that could not tell. Errors are thrown as a 400. */
  readonly warnings: readonly DomainProblems[];
}

const NAME = /^[\p{L}\p{M}][\p{L}\p{M}' .-]{0,63}$/u;
const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
/** RFC 2142 mailboxes every domain must route to a person; the provider keeps them. */
const RESERVED_LOCAL_PARTS = new Set(['postmaster', 'abuse', 'hostmaster', 'mailer-daemon']);

/**
 * Every check an order goes through, the same for preview and place (SPEC 4.2: a passing preview is
 * accepted): limits, domain syntax, duplicates, domains already on an order of any account,
 * registration and delegation in DNS, tenancy at the first mailbox provider, forward_to, mailbox
 * names and local parts, and that the domain is proved to be the account's (TXT at
 * _inbox-verification.<domain>, once). Errors refuse the order with a 400 whose `problems` are grouped by domain;
 * a check that cannot tell (a DNS timeout, a tenancy probe without answer) is a warning.
 */
export async function checkOrder(input: OrderInput, accountId: number, ctx: Context): Promise<CheckedOrder> {
  const mailboxCount = input.domains.reduce((sum, d) => sum + d.mailboxes.length, 0);
  if (input.domains.length === 0) throw new DomainError('no_domains', 'Send at least one domain in "domains", each with its mailboxes.', { problems: [] });
  if (input.domains.length > ORDER_LIMITS.domains) {
    throw new DomainError(
      'too_many_domains',
      `An order holds at most ${ORDER_LIMITS.domains} domains; this one has ${input.domains.length}. Split it into several orders.`,
      { problems: [] },
    );
  }
  if (mailboxCount > ORDER_LIMITS.mailboxes) {
    throw new DomainError(
      'too_many_mailboxes',
      `An order holds at most ${ORDER_LIMITS.mailboxes} mailboxes; this one has ${mailboxCount}. Split it into several orders.`,
      { problems: [] },
    );
  }

  const issues = new Map<number, OrderIssue[]>();
  const add = (index: number, issue: OrderIssue) => issues.set(index, [...(issues.get(index) ?? []), issue]);
  const shown: string[] = [];
  const checked: (CheckedDomain | null)[] = [];
  const firstIndexOf = new Map<string, number>();

  input.domains.forEach((d, i) => {
    checked.push(checkDomainEntry(d, i, { add, shown, firstIndexOf }));
  });

  const names = checked.filter((d): d is CheckedDomain => d !== null).map((d) => d.domain);
  if (names.length) {
    const taken = await listDomainsOnOrders(ctx.services.db, names);
    reportTaken(taken, accountId, firstIndexOf, add);
    const free = names.filter((n) => !taken.some((t) => t.domain === n));
    const proof = await readOwnership(free, accountId, ctx);
    await Promise.all(free.map((name) => checkDomainInDns(name, firstIndexOf.get(name)!, ctx, add, proof)));
  }

  const errors = groupProblems(shown, issues, (issue) => issue.severity === 'error');
  if (errors.length) {
    const count = errors.reduce((n, g) => n + g.issues.filter((x) => x.severity === 'error').length, 0);
    throw new DomainError(
      'order_problems',
      `The order cannot be placed as sent: ${count} problem${count === 1 ? '' : 's'} on ${errors.length} domain${errors.length === 1 ? '' : 's'}, listed in "problems"; fix them and send it again.`,
      { problems: groupProblems(shown, issues, () => true) },
    );
  }
  return { domains: checked as CheckedDomain[], mailboxCount, warnings: groupProblems(shown, issues, () => true) };
}

type AddIssue = (index: number, issue: OrderIssue) => void;

/**
 * One entry of "domains": its name (registrable, listed once), its forward_to and its mailboxes.
 * Null when the name cannot be ordered; its issues are added either way.
 */
function checkDomainEntry(
  d: OrderDomainInput,
  i: number,
  order: { readonly add: AddIssue; readonly shown: string[]; readonly firstIndexOf: Map<string, number> },
): CheckedDomain | null {
  const { add, shown, firstIndexOf } = order;
  const at = `domains[${i}]`;
  let domain: string | null = null;
  try {
    domain = normalizeDomain(d.domain, `${at}.domain`).domain;
  } catch (error) {
    add(i, { severity: 'error', code: 'invalid_domain', field: `${at}.domain`, message: error instanceof DomainError ? error.detail : 'Not a domain name.' });
  }
  shown.push(domain ?? d.domain.trim().toLowerCase());
  if (domain !== null) {
    const registrable = getDomain(domain, { allowPrivateDomains: false });
    if (registrable !== domain) {
      add(i, {
        severity: 'error',
        code: 'not_registrable_domain',
        field: `${at}.domain`,
        message: registrable
          ? `${domain} is a subdomain; order the registered domain ${registrable} (inboxes are built on the domain you own).`
          : `${domain} is a public suffix, not a domain one can own.`,
      });
      domain = null;
    } else if (firstIndexOf.has(domain)) {
      add(i, {
        severity: 'error',
        code: 'duplicate_domain',
        field: `${at}.domain`,
        message: `${domain} is also domains[${firstIndexOf.get(domain)}]; list each domain once, with all its mailboxes.`,
      });
      domain = null;
    } else {
      firstIndexOf.set(domain, i);
    }
  }

  let forwardTo: string | null = null;
  if (d.forwardTo !== undefined && d.forwardTo !== null && d.forwardTo.trim() !== '') {
    try {
      forwardTo = normalizeDomain(d.forwardTo, `${at}.forward_to`).domain;
      if (forwardTo === domain)
        add(i, {
          severity: 'error',
          code: 'forward_to_self',
          field: `${at}.forward_to`,
          message: `${domain} cannot forward to itself; give the site visitors should land on.`,
        });
    } catch (error) {
      add(i, {
        severity: 'error',
        code: 'invalid_forward_to',
        field: `${at}.forward_to`,
        message: error instanceof DomainError ? error.detail : 'Not a domain name.',
      });
    }
  }

  if (d.mailboxes.length === 0)
    add(i, {
      severity: 'error',
      code: 'no_mailboxes',
      field: `${at}.mailboxes`,
      message: 'Add at least one mailbox: a domain is ordered for the inboxes built on it.',
    });
  const mailboxes = checkMailboxes(d.mailboxes, at, i, add);
  return domain === null ? null : { domain, forwardTo, mailboxes };
}

/** The mailboxes of one domain: names, a valid local part not reserved (RFC 2142), each local part once. */
function checkMailboxes(mailboxes: readonly OrderMailboxInput[], at: string, i: number, add: AddIssue): CheckedMailbox[] {
  const seen = new Map<string, number>();
  return mailboxes.map((m, j): CheckedMailbox => {
    const mat = `${at}.mailboxes[${j}]`;
    const firstName = m.firstName.trim();
    const lastName = m.lastName.trim();
    const localPart = m.localPart.trim().toLowerCase();
    if (!NAME.test(firstName))
      add(i, {
        severity: 'error',
        code: 'invalid_first_name',
        field: `${mat}.first_name`,
        message: `first_name "${firstName.slice(0, 70)}" must be 1 to 64 letters (spaces, hyphens, apostrophes and dots allowed), starting with a letter.`,
      });
    if (!NAME.test(lastName))
      add(i, {
        severity: 'error',
        code: 'invalid_last_name',
        field: `${mat}.last_name`,
        message: `last_name "${lastName.slice(0, 70)}" must be 1 to 64 letters (spaces, hyphens, apostrophes and dots allowed), starting with a letter.`,
      });
    if (!LOCAL_PART.test(localPart) || localPart.includes('..')) {
      add(i, {
        severity: 'error',
        code: 'invalid_local_part',
        field: `${mat}.local_part`,
        message: `local_part "${localPart.slice(0, 70)}" must be 1 to 64 of a-z, 0-9, dot, hyphen and underscore, starting and ending with a letter or digit, with no two dots in a row.`,
      });
    } else if (RESERVED_LOCAL_PARTS.has(localPart)) {
      add(i, {
        severity: 'error',
        code: 'reserved_local_part',
        field: `${mat}.local_part`,
        message: `${localPart}@ is reserved for reports to the domain's administrator (RFC 2142); choose another name.`,
      });
    } else if (seen.has(localPart)) {
      add(i, {
        severity: 'error',
        code: 'duplicate_local_part',
        field: `${mat}.local_part`,
        message: `${localPart}@ is also mailboxes[${seen.get(localPart)}] of this domain; each mailbox needs its own local_part.`,
      });
    } else {
      seen.set(localPart, j);
    }
    return { firstName, lastName, localPart };
  });
}

/** A domain already on an order: the caller's (named) or another account's (not named). */
function reportTaken(
  taken: Awaited<ReturnType<typeof listDomainsOnOrders>>,
  accountId: number,
  firstIndexOf: ReadonlyMap<string, number>,
  add: AddIssue,
): void {
  for (const row of taken) {
    const i = firstIndexOf.get(row.domain)!;
    // Another account's order is not named: whose domain it is is not ours to tell.
    add(
      i,
      row.account_id === accountId
        ? {
            severity: 'error',
            code: 'domain_on_your_order',
            field: `domains[${i}].domain`,
            message: `${row.domain} is already on your order ${row.reference}; a domain can be on one order only.`,
          }
        : {
            severity: 'error',
            code: 'domain_on_another_order',
            field: `domains[${i}].domain`,
            message: `${row.domain} is already on an order; a domain can be on one order only. Check that you own it.`,
          },
    );
  }
}

/** What the TXT at _inbox-verification.<domain> said, for each domain the account had not proved yet. */
interface Proof {
  readonly token: string;
  readonly readings: ReadonlyMap<string, Exclude<TxtReading, { seen: true }>>;
}

/**
 * Proves the domains are the account's (issue 12, item 6): those verified before pass; the others'
 * TXT records are read now, before the NS and tenancy lookups, with one question each added to the
 * request's DNS budget, so a large order is never refused because the budget ran out. Those seen
 * are recorded as verified at once (they stay so, whatever the rest of the order).
 */
async function readOwnership(free: readonly string[], accountId: number, ctx: Context): Promise<Proof | null> {
  const db = ctx.services.db;
  const known = new Set((await verifiedDomains(db, accountId, free)).map((v) => v.domain));
  const unproved = free.filter((n) => !known.has(n));
  if (unproved.length === 0) return null;
  const token = await verificationToken(db, accountId);
  ctx.scope().budget.grow(unproved.length);
  const dns = ctx.checks().dns;
  const readings = await Promise.all(unproved.map(async (domain) => ({ domain, reading: await readVerificationTxt(dns, domain, token) })));
  const seen: string[] = [];
  const missing = new Map<string, Exclude<TxtReading, { seen: true }>>();
  for (const { domain, reading } of readings) {
    if (reading.seen) seen.push(domain);
    else missing.set(domain, reading);
  }
  await recordVerified(db, accountId, seen, ctx.now());
  return { token, readings: missing };
}

/**
 * Registered (it exists), delegated (NS records), proved the account's own, and not attached to a
 * tenant of the first provider.
 */
async function checkDomainInDns(
  domain: string,
  index: number,
  ctx: Context,
  add: (index: number, issue: OrderIssue) => void,
  proof: Proof | null,
): Promise<void> {
  const field = `domains[${index}].domain`;
  const checks = ctx.checks();
  const ns = await checks.dns.lookup(domain, 'NS');
  if (!ns.ok && ns.failure === 'nxdomain') {
    add(index, { severity: 'error', code: 'domain_not_registered', field, message: `${domain} does not exist in DNS: register it first, then order.` });
    return;
  }
  if ((!ns.ok && ns.failure === 'nodata') || (ns.ok && ns.records.length === 0)) {
    add(index, {
      severity: 'error',
      code: 'domain_not_delegated',
      field,
      message: `${domain} has no nameservers (NS records): point it at your DNS provider's nameservers at the registrar, then order.`,
    });
    return;
  }
  if (!ns.ok) {
    add(index, {
      severity: 'warning',
      code: 'dns_unverified',
      field,
      message: `Whether ${domain} is registered and delegated could not be checked (the NS lookup failed: ${ns.failure}); we check again before building.`,
    });
  }
  const unproved = proof?.readings.get(domain);
  if (proof && unproved) {
    // Always an error, a failed lookup included: otherwise anyone could order a domain they do not
    // control and so block its owner. Reported after the NS check, which says more when it fails.
    add(index, {
      severity: 'error',
      code: 'domain_not_verified',
      field,
      message: unverifiedSentence(domain, proof.token, unproved),
      record: verificationRecord(domain, proof.token),
    });
  }
  const tenancy = await checkProviderDomain({ domain }, checks);
  if (tenancy.attached === true) {
    add(index, {
      severity: 'error',
      code: 'attached_to_google_tenant',
      field,
      message: `${domain} is already attached to a Google Workspace account (${tenancy.summary.replace(/\.$/, '')}). A new tenant cannot use it until that account removes it.`,
    });
  } else if (tenancy.attached === null) {
    add(index, {
      severity: 'warning',
      code: 'tenancy_unknown',
      field,
      message: `Whether ${domain} is attached to a Google Workspace account could not be told; if it is, building will wait until that account removes it.`,
    });
  }
}
