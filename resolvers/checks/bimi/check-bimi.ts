import { DomainError } from '../../domain-error.js';
import type { CheckContext } from '../check-context.js';
import type { HttpsFetchResult } from '../../../clients/http/https-fetcher.js';
import { statusFromFindings, type CheckResultBase, type CheckStatus, type Finding } from '../check-result.js';
import { isMissing, type DnsAnswer } from '../../../clients/dns/dns-types.js';
import { normalizeDomain } from '../normalize-domain.js';
import { organizationalDomain } from '../organizational-domain.js';
import { bimiDmarcRequirement, type BimiDmarcDetail } from './bimi-dmarc-requirement.js';
import { inspectMarkCertificate, unreadMarkCertificate, type MarkCertificate } from './inspect-mark-certificate.js';
import { bundledMarkRoots, type MarkRoots } from './mark-roots.js';
import { isBimiRecord, parseBimiRecord } from './parse-bimi-record.js';
import { validateSvgTinyPs } from './validate-svg-tiny-ps.js';

export type { BimiDmarcDetail } from './bimi-dmarc-requirement.js';
export type { MarkCertificate } from './inspect-mark-certificate.js';

/** A check context that may carry the operator's mark roots (BIMI_EXTRA_ROOTS_FILE); without, the bundled ones. */
export interface BimiContext extends CheckContext {
  readonly markRoots?: MarkRoots;
}

export interface CheckBimiInput {
  readonly domain: string;
  /** Defaults to "default". */
  readonly selector?: string | null;
}

export interface BimiLogo {
  readonly fetched: boolean;
  readonly sizeBytes: number | null;
  /** Null when the file could not be fetched. */
  readonly svgTinyPsValid: boolean | null;
  readonly problems: readonly string[];
}

export interface CheckBimiAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode?: string;
  readonly selector: string;
  /** Where the record was found: the domain, or its organisational domain by fallback; null when none. */
  readonly recordDomain: string | null;
  readonly record: string | null;
  /** A single BIMI record was found and it parses without error. */
  readonly valid: boolean;
  /** The record is "v=BIMI1; l=; a=;", an explicit refusal to take part. */
  readonly declined: boolean;
  readonly logoUrl: string | null;
  readonly authorityUrl: string | null;
  /** Null when a DMARC lookup failed. */
  readonly dmarcEnforced: boolean | null;
  readonly dmarcDetail: BimiDmarcDetail;
  /** Null when the record names no logo. */
  readonly logo: BimiLogo | null;
  /** Null when the record names no evidence document (a=). */
  readonly certificate: MarkCertificate | null;
}

/** Fetch caps: four times the 32 KiB SVG limit so an oversized logo can still be measured and named. */
export const LOGO_FETCH_MAX_BYTES = 128 * 1024;
export const CERTIFICATE_FETCH_MAX_BYTES = 256 * 1024;
export const BIMI_FETCH_TIMEOUT_MS = 10_000;

const SELECTOR = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A selector is one or more DNS labels (draft section 4.4); "x._bimi.example.com" is cut to "x". */
function normalizeSelector(raw: string | null | undefined): string {
  if (raw == null || raw.trim() === '') return 'default';
  const selector = raw
    .trim()
    .toLowerCase()
    .replace(/\._bimi(?:\..*)?$/, '');
  if (!SELECTOR.test(selector) || selector.length > 200) {
    throw new DomainError(
      'invalid_selector',
      `"selector" is not a valid BIMI selector ("${raw.slice(0, 80)}"): pass the s= value of the BIMI-Selector header, such as default or brand2, or leave it out for default.`,
    );
  }
  return selector;
}

const lookupFailed = (answer: DnsAnswer): boolean => !answer.ok && !isMissing(answer);
const bimiTexts = (answer: DnsAnswer<'TXT'>): string[] => (answer.ok ? answer.records.map((r) => r.data.join('')).filter(isBimiRecord) : []);

/**
 * BIMI for a domain: the Assertion Record at <selector>._bimi.<domain>, falling back to the
 * organisational domain (draft-brand-indicators-for-message-identification section 7.2 step 6), the
 * SVG logo against SVG Tiny PS, the evidence document (VMC or CMC) and the DMARC enforcement BIMI
 * requires. The record lookups at both names and both DMARC lookups go out at once; the logo and
 * the certificate are then fetched side by side.
 */
export async function checkBimi(input: CheckBimiInput, ctx: BimiContext): Promise<CheckBimiAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const selector = normalizeSelector(input.selector);
  const org = organizationalDomain(domain) ?? domain;
  const apex = org === domain;
  const [atDomain, atOrg, dmarcAtDomain, dmarcAtOrg] = await Promise.all([
    ctx.dns.lookup(`${selector}._bimi.${domain}`, 'TXT'),
    apex ? null : ctx.dns.lookup(`${selector}._bimi.${org}`, 'TXT'),
    ctx.dns.lookup(`_dmarc.${domain}`, 'TXT'),
    apex ? null : ctx.dns.lookup(`_dmarc.${org}`, 'TXT'),
  ]);

  const findings: Finding[] = [];
  const failedLookups: string[] = [];

  const { recordDomain, candidates } = discoverRecord({ domain, org, selector, atDomain, atOrg }, findings, failedLookups);

  const record = candidates.length === 1 ? candidates[0]! : null;
  const parsed = record !== null ? parseBimiRecord(record) : null;
  if (failedLookups.length === 0 && candidates.length === 0) {
    findings.push({
      severity: 'error',
      code: 'bimi_no_record',
      message: `No BIMI record at ${selector}._bimi.${domain}${apex ? '' : ` or ${selector}._bimi.${org}`}: publish "v=BIMI1; l=https://.../logo.svg; a=https://.../vmc.pem" as a TXT record.`,
    });
  } else if (candidates.length > 1) {
    findings.push({
      severity: 'error',
      code: 'bimi_multiple_records',
      message: `${selector}._bimi.${recordDomain} has ${candidates.length} BIMI records; receivers then use none (section 7.2 step 9). Keep one.`,
    });
  }
  if (parsed) {
    for (const error of parsed.errors) findings.push({ severity: 'error', code: 'bimi_invalid_record', message: `The BIMI record is invalid: ${error}.` });
    for (const warning of parsed.warnings) findings.push({ severity: 'warning', code: 'bimi_record_warning', message: `In the BIMI record, ${warning}.` });
    if (parsed.declined)
      findings.push({
        severity: 'warning',
        code: 'bimi_declined',
        message: `The record "${record}" explicitly declines BIMI, so no logo is shown. Put the logo URL in l= to take part.`,
      });
  }
  const logoUrl = parsed?.logoUrl ?? null;
  const authorityUrl = parsed?.authorityUrl ?? null;

  // --- DMARC (section 7.1) ---
  const dmarc = bimiDmarcRequirement(domain, org, dmarcAtDomain, dmarcAtOrg ?? dmarcAtDomain);
  for (const name of dmarc.failed) {
    failedLookups.push(name);
    findings.push({
      severity: 'error',
      code: 'bimi_dmarc_lookup_failed',
      message: `Looking up TXT ${name} failed, so we cannot tell whether DMARC is enforced; try again.`,
    });
  }
  for (const change of dmarc.detail.changes) {
    findings.push({ severity: 'error', code: 'bimi_dmarc_not_enforced', message: `DMARC is not strict enough for BIMI. ${change}` });
  }

  // --- the logo and the evidence document ---
  const limits = (maxBytes: number) => ({ maxBytes, timeoutMs: BIMI_FETCH_TIMEOUT_MS });
  const [logoFetch, certificateFetch] = await Promise.all([
    logoUrl ? ctx.https.get(logoUrl, limits(LOGO_FETCH_MAX_BYTES)) : null,
    authorityUrl ? ctx.https.get(authorityUrl, limits(CERTIFICATE_FETCH_MAX_BYTES)) : null,
  ]);
  const { logo, svg } = readLogo(logoFetch, logoUrl, findings);
  let certificate: MarkCertificate | null = null;
  if (authorityUrl && certificateFetch) {
    const body = bodyOf(certificateFetch, authorityUrl, 'evidence document', (message) =>
      findings.push({ severity: 'error', code: 'bimi_certificate_unreachable', message }),
    );
    if (body) {
      const roots = ctx.markRoots ?? bundledMarkRoots();
      certificate = inspectMarkCertificate(body, { domains: [...new Set([domain, recordDomain ?? domain])], now: ctx.now(), logo: svg, roots });
      for (const problem of certificate.problems)
        findings.push({ severity: 'error', code: 'bimi_certificate_invalid', message: `The mark certificate is not acceptable: ${problem}.` });
    } else {
      certificate = unreadMarkCertificate(false, [findings.at(-1)!.message]);
    }
  } else if (parsed && !parsed.declined && parsed.errors.length === 0) {
    findings.push({
      severity: 'warning',
      code: 'bimi_no_certificate',
      message:
        'The record has no a= evidence document; the largest mailbox providers show a logo only with a Verified Mark Certificate (VMC) or Common Mark Certificate (CMC).',
    });
  }

  const status: CheckStatus = failedLookups.length > 0 ? 'error' : statusFromFindings(findings);
  return {
    status,
    summary: summarize(domain, selector, status, failedLookups, findings, parsed?.declined ?? false),
    findings,
    domain,
    ...(unicode ? { domainUnicode: unicode } : {}),
    selector,
    recordDomain,
    record,
    valid: parsed !== null && parsed.errors.length === 0,
    declined: parsed?.declined ?? false,
    logoUrl,
    authorityUrl,
    dmarcEnforced: dmarc.enforced,
    dmarcDetail: dmarc.detail,
    logo,
    certificate,
  };
}

/** Discovery (section 7.2): the record at <selector>._bimi.<domain>, else at the organisational domain; failed lookups are findings. */
function discoverRecord(
  names: {
    readonly domain: string;
    readonly org: string;
    readonly selector: string;
    readonly atDomain: DnsAnswer<'TXT'>;
    readonly atOrg: DnsAnswer<'TXT'> | null;
  },
  findings: Finding[],
  failedLookups: string[],
): { recordDomain: string | null; candidates: string[] } {
  const { domain, org, selector, atDomain, atOrg } = names;
  let recordDomain: string | null = null;
  let candidates: string[] = [];
  if (lookupFailed(atDomain)) {
    failedLookups.push(`${selector}._bimi.${domain}`);
  } else if (bimiTexts(atDomain).length > 0) {
    recordDomain = domain;
    candidates = bimiTexts(atDomain);
  } else if (atOrg) {
    if (lookupFailed(atOrg)) failedLookups.push(`${selector}._bimi.${org}`);
    else if (bimiTexts(atOrg).length > 0) {
      recordDomain = org;
      candidates = bimiTexts(atOrg);
      findings.push({
        severity: 'info',
        code: 'bimi_organizational_fallback',
        message: `${domain} has no BIMI record of its own; receivers use the one at ${selector}._bimi.${org}.`,
      });
    }
  }
  for (const name of failedLookups) {
    findings.push({
      severity: 'error',
      code: 'bimi_lookup_failed',
      message: `Looking up TXT ${name} failed, so we cannot tell whether a BIMI record exists; try again.`,
    });
  }
  return { recordDomain, candidates };
}

/** The body of a 200 answer, or null after reporting why there is none. */
function bodyOf(result: HttpsFetchResult, url: string, what: string, report: (message: string) => void): Buffer | null {
  if (!result.ok) {
    report(`The ${what} at ${url} could not be fetched: ${result.reason}`);
    return null;
  }
  if (result.status >= 300 && result.status < 400) {
    report(
      `The ${what} URL ${url} redirects${result.headers.location ? ` to ${result.headers.location}` : ''} (HTTP ${result.status}); receivers do not follow redirects, so put the final URL in the record.`,
    );
    return null;
  }
  if (result.status !== 200) {
    report(`The ${what} at ${url} answered HTTP ${result.status}, not 200.`);
    return null;
  }
  return result.body;
}

function readLogo(result: HttpsFetchResult | null, url: string | null, findings: Finding[]): { logo: BimiLogo | null; svg: Buffer | null } {
  if (!result || !url) return { logo: null, svg: null };
  const body = bodyOf(result, url, 'logo', (message) => findings.push({ severity: 'error', code: 'bimi_logo_unreachable', message }));
  if (!body) {
    return { logo: { fetched: false, sizeBytes: null, svgTinyPsValid: null, problems: [findings.at(-1)!.message] }, svg: null };
  }
  const checked = validateSvgTinyPs(body);
  const problems = [...checked.problems];
  for (const problem of checked.problems)
    findings.push({ severity: 'error', code: 'bimi_logo_invalid', message: `The logo is not valid SVG Tiny PS: ${problem}.` });
  const mediaType = result.ok ? (result.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() : '';
  if (mediaType !== 'image/svg+xml') {
    const message = `The logo is served as "${mediaType || 'no media type'}"; serve it as image/svg+xml.`;
    problems.push(message);
    findings.push({ severity: 'warning', code: 'bimi_logo_media_type', message });
  }
  return { logo: { fetched: true, sizeBytes: checked.svg?.length ?? body.length, svgTinyPsValid: checked.valid, problems }, svg: checked.svg };
}

function summarize(domain: string, selector: string, status: CheckStatus, failed: string[], findings: Finding[], declined: boolean): string {
  if (status === 'error') return `Some lookups for ${domain} failed (${failed.join(', ')}), so BIMI could not be fully checked; try again.`;
  if (declined) return `${domain} publishes a BIMI record that declines to show a logo.`;
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length > 0)
    return `BIMI for ${domain} (selector ${selector}) is not ready: ${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : ''}`;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  return `BIMI for ${domain} is valid: the record, the SVG logo and the DMARC enforcement meet the requirements${warnings > 0 ? `, with ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`;
}
