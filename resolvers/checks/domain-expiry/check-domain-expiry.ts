import { getDomain } from 'tldts';
import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import { statusFromFindings } from '../check-result.js';
import { normalizeDomain } from '../normalize-domain.js';
import { rdapBootstrap } from '../../../clients/registry/rdap-bootstrap.js';
import { lookupRdap, type RdapGet } from '../../../clients/registry/rdap-lookup.js';
import type { RegistrationConfig } from '../../../config/settings.js';
import type { RegistrationLookup } from '../../../clients/registry/registration-record.js';
import { lookupWhois } from '../../../clients/registry/lookup-whois.js';

export interface DomainExpiryInput {
  readonly domain: unknown;
}

export interface ExpiryContext extends CheckContext {
  readonly registration: RegistrationConfig;
  /** The RDAP GET to use (the service's: clients/registry/rdap-client.ts); fetch when absent. */
  readonly rdapGet?: RdapGet;
}

export interface DomainExpiryAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode: string | null;
  /** The registered domain asked about (a subdomain's registrable parent, by the Public Suffix List). */
  readonly registeredDomain: string;
  /** true when the registry knows it, false when it says no such domain, null when it could not be asked. */
  readonly registered: boolean | null;
  readonly registrar: string | null;
  readonly created: string | null;
  readonly expires: string | null;
  readonly daysRemaining: number | null;
  /** Domain age in whole days, for the deliverability grade. */
  readonly ageDays: number | null;
  readonly source: 'rdap' | 'whois' | null;
  readonly server: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const RENEW_SOON_DAYS = 30;
const YOUNG_DOMAIN_DAYS = 30;

/**
 * Registrar, creation and expiry of a domain's registration. RDAP first, at the service IANA's
 * bootstrap registry names for the TLD (RFC 9224); WHOIS over port 43 (RFC 3912) only for TLDs with
 * no RDAP service, which today are some country-code TLDs. A subdomain is looked up as its
 * registered domain (Public Suffix List, ICANN section: a registry only knows what was registered).
 */
export async function checkDomainExpiry(input: DomainExpiryInput, ctx: ExpiryContext): Promise<DomainExpiryAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const registered = getDomain(domain, { allowPrivateDomains: false }) ?? domain;
  const tld = registered.slice(registered.lastIndexOf('.') + 1);
  const config = ctx.registration;
  const now = ctx.now();

  let source: 'rdap' | 'whois' = 'rdap';
  let result: RegistrationLookup | null = null;
  let bases: readonly string[] | null = null;
  try {
    bases = await rdapBootstrap.serversFor(registered, config.rdapBootstrapUrl, now, config.timeoutMs);
  } catch (error) {
    result = {
      kind: 'failed',
      reason: `IANA's RDAP bootstrap registry could not be loaded (${error instanceof Error ? error.message : String(error)})`,
      server: null,
    };
  }
  if (bases && bases.length > 0) {
    result = await lookupRdap(registered, bases, config.timeoutMs, ctx.rdapGet);
  } else if (bases) {
    source = 'whois';
    result = await lookupWhois(registered, tld, config, ctx.dns);
  }
  const lookup: RegistrationLookup = result ?? { kind: 'failed', reason: 'no registration service was found', server: null };

  const base = { domain, domainUnicode: unicode, registeredDomain: registered };
  const empty = { registrar: null, created: null, expires: null, daysRemaining: null, ageDays: null };
  if (lookup.kind === 'failed') {
    return {
      status: 'error',
      summary: `The registration of ${registered} could not be looked up: ${lookup.reason}.`,
      findings: [
        lookup.refused
          ? {
              severity: 'error',
              code: 'whois_server_refused',
              message: `${lookup.reason}. This says nothing about the registration; the TLD's WHOIS server must have a public address (an operator can set WHOIS_SERVER).`,
            }
          : { severity: 'error', code: 'lookup_failed', message: `${lookup.reason}. This says nothing about the registration; try again later.` },
      ],
      ...base,
      registered: null,
      ...empty,
      source: bases && bases.length === 0 ? 'whois' : bases ? 'rdap' : null,
      server: lookup.server,
    };
  }
  if (lookup.kind === 'not_found') {
    return {
      status: 'fail',
      summary: `${registered} is not registered, according to ${lookup.server}.`,
      findings: [
        {
          severity: 'error',
          code: 'not_registered',
          message: `The registry has no registration for ${registered}: mail from it will fail every check. Register it, or check the spelling.`,
        },
      ],
      ...base,
      registered: false,
      ...empty,
      source,
      server: lookup.server,
    };
  }
  const daysRemaining = lookup.expires ? Math.floor((Date.parse(lookup.expires) - now.getTime()) / DAY_MS) : null;
  const ageDays = lookup.created ? Math.floor((now.getTime() - Date.parse(lookup.created)) / DAY_MS) : null;
  const findings: Finding[] = [];
  if (daysRemaining !== null && daysRemaining < 0) {
    findings.push({
      severity: 'error',
      code: 'expired',
      message: `${registered} expired ${-daysRemaining} day(s) ago (${lookup.expires}). Renew it at ${lookup.registrar ?? 'the registrar'} now.`,
    });
  } else if (daysRemaining !== null && daysRemaining < RENEW_SOON_DAYS) {
    findings.push({
      severity: 'warning',
      code: 'expires_soon',
      message: `${registered} expires in ${daysRemaining} day(s) (${lookup.expires}). Renew it or turn on auto-renewal.`,
    });
  }
  if (ageDays !== null && ageDays < YOUNG_DOMAIN_DAYS) {
    findings.push({
      severity: 'warning',
      code: 'young_domain',
      message: `${registered} was registered ${ageDays} day(s) ago; receivers distrust mail from domains younger than about 30 days, so warm it up slowly.`,
    });
  }
  if (!lookup.expires)
    findings.push({ severity: 'info', code: 'no_expiry_published', message: `${lookup.server} does not publish an expiry date for ${registered}.` });
  const status = statusFromFindings(findings);
  const summary =
    `${registered} is registered${lookup.registrar ? ` with ${lookup.registrar}` : ''}` +
    `${daysRemaining !== null ? `; it ${daysRemaining < 0 ? `expired ${-daysRemaining} day(s) ago` : `expires in ${daysRemaining} day(s)`}` : ''} (${source.toUpperCase()}).`;
  return {
    status,
    summary,
    findings,
    ...base,
    registered: true,
    registrar: lookup.registrar,
    created: lookup.created,
    expires: lookup.expires,
    daysRemaining,
    ageDays,
    source,
    server: lookup.server,
  };
}
