import type { CheckContext } from '../check-context.js';
import type { HttpsFetchResult } from '../../../clients/http/https-fetcher.js';
import { statusFromFindings, type CheckResultBase, type Finding } from '../check-result.js';
import { isMissing, type DnsAnswer } from '../../../clients/dns/dns-types.js';
import { normalizeDomain } from '../normalize-domain.js';
import { mxMatchesPattern } from './mx-matches-pattern.js';
import { isMtaStsRecord, parseMtaStsRecord } from './parse-mta-sts-record.js';
import { parseMtaStsPolicy, type MtaStsPolicy } from './parse-mta-sts-policy.js';
import { isTlsRptRecord, parseTlsRptRecord } from './parse-tls-rpt-record.js';

export type { MtaStsPolicy } from './parse-mta-sts-policy.js';

export interface CheckMtaStsInput {
  readonly domain: string;
}

export interface MtaStsMxHost {
  readonly host: string;
  /** Null when there is no usable policy to match against. */
  readonly matchesPolicy: boolean | null;
}

export interface TlsRptSummary {
  readonly record: string;
  readonly rua: readonly string[];
  readonly valid: boolean;
}

export interface CheckMtaStsAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode?: string;
  /** The single v=STSv1 record, or null when there is none (or several). */
  readonly record: string | null;
  readonly recordId: string | null;
  readonly policyUrl: string;
  readonly policy: MtaStsPolicy | null;
  /** Why no usable policy was read, or null when it was. */
  readonly policyError: string | null;
  readonly mxHosts: readonly MtaStsMxHost[];
  readonly tlsRpt: TlsRptSummary | null;
}

/** RFC 8461 leaves the limits to senders; 64 KiB is far above any real policy. */
export const POLICY_MAX_BYTES = 64 * 1024;
export const POLICY_TIMEOUT_MS = 10_000;
const ONE_DAY = 86_400;

const texts = (answer: DnsAnswer<'TXT'>): string[] => (answer.ok ? answer.records.map((r) => r.data.join('')) : []);
const lookupFailed = (answer: DnsAnswer): boolean => !answer.ok && !isMissing(answer);
const failureOf = (answer: DnsAnswer): string => (answer.ok ? '' : `${answer.failure}: ${answer.detail}`);

/**
 * MTA-STS (RFC 8461) and TLS-RPT (RFC 8460) for a domain: the `_mta-sts` record, the policy file at
 * https://mta-sts.<domain>/.well-known/mta-sts.txt, whether every MX host is covered by the policy,
 * and the `_smtp._tls` reporting record. All lookups and the policy fetch start at once: none needs
 * another's answer, so the check costs one round trip plus the fetch.
 */
export async function checkMtaSts(input: CheckMtaStsInput, ctx: CheckContext): Promise<CheckMtaStsAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const policyHost = `mta-sts.${domain}`;
  const policyUrl = `https://${policyHost}/.well-known/mta-sts.txt`;
  const [stsAnswer, rptAnswer, mxAnswer, fetched] = await Promise.all([
    ctx.dns.lookup(`_mta-sts.${domain}`, 'TXT'),
    ctx.dns.lookup(`_smtp._tls.${domain}`, 'TXT'),
    ctx.dns.lookup(domain, 'MX'),
    ctx.https.get(policyUrl, { maxBytes: POLICY_MAX_BYTES, timeoutMs: POLICY_TIMEOUT_MS }),
  ]);

  const findings: Finding[] = [];
  const failedLookups: string[] = [];
  const sinks: Sinks = { findings, failedLookups };

  const { record, recordId } = readStsRecord(stsAnswer, domain, sinks);
  const { policy, policyError } = judgePolicyFile({ stsAnswer, fetched, policyUrl, policyHost }, sinks);
  const mxHosts = matchMxHosts(mxAnswer, domain, policy, sinks);
  const tlsRpt = readTlsRpt(rptAnswer, domain, sinks);

  const status = failedLookups.length > 0 ? 'error' : statusFromFindings(findings);
  return {
    status,
    summary: summarize(domain, status, failedLookups, findings, policy, mxHosts),
    findings,
    domain,
    ...(unicode ? { domainUnicode: unicode } : {}),
    record,
    recordId,
    policyUrl,
    policy,
    policyError,
    mxHosts,
    tlsRpt,
  };
}

/** Where each step of the check puts what it found: findings in check order, and the lookups that failed. */
interface Sinks {
  readonly findings: Finding[];
  readonly failedLookups: string[];
}

// --- the _mta-sts record (section 3.1) ---
function readStsRecord(stsAnswer: DnsAnswer<'TXT'>, domain: string, sinks: Sinks): { record: string | null; recordId: string | null } {
  const { findings, failedLookups } = sinks;
  let record: string | null = null;
  let recordId: string | null = null;
  if (lookupFailed(stsAnswer)) {
    failedLookups.push(`_mta-sts.${domain} TXT`);
    findings.push({
      severity: 'error',
      code: 'mta_sts_lookup_failed',
      message: `Looking up TXT _mta-sts.${domain} failed (${failureOf(stsAnswer)}), so we cannot tell whether MTA-STS is published.`,
    });
  } else {
    const candidates = texts(stsAnswer).filter(isMtaStsRecord);
    if (candidates.length === 0) {
      findings.push({
        severity: 'error',
        code: 'mta_sts_no_record',
        message: `No "v=STSv1" TXT record at _mta-sts.${domain}: publish one such as "v=STSv1; id=20240101" so senders look for the policy.`,
      });
    } else if (candidates.length > 1) {
      findings.push({
        severity: 'error',
        code: 'mta_sts_multiple_records',
        message: `_mta-sts.${domain} has ${candidates.length} "v=STSv1" records; senders then ignore MTA-STS entirely (RFC 8461 section 3.1). Keep exactly one.`,
      });
    } else {
      record = candidates[0]!;
      const parsed = parseMtaStsRecord(record);
      recordId = parsed.id;
      for (const problem of parsed.problems) {
        findings.push({
          severity: 'error',
          code: 'mta_sts_invalid_record',
          message: `The _mta-sts record is invalid: ${problem}; senders treat the domain as having no policy.`,
        });
      }
    }
  }
  return { record, recordId };
}

// --- the policy file (sections 3.2 and 3.3) ---
function judgePolicyFile(
  served: { readonly stsAnswer: DnsAnswer<'TXT'>; readonly fetched: HttpsFetchResult; readonly policyUrl: string; readonly policyHost: string },
  sinks: Sinks,
): { policy: MtaStsPolicy | null; policyError: string | null } {
  const { stsAnswer, fetched, policyUrl, policyHost } = served;
  const { findings, failedLookups } = sinks;
  const { policy, policyError, policyFindings, dnsFailed } = readPolicy(fetched, policyUrl, policyHost);
  // With no record, a fetch failure is expected and says nothing new.
  const hasRecord = texts(stsAnswer).some(isMtaStsRecord);
  if (hasRecord || policy) findings.push(...policyFindings);
  if (hasRecord && dnsFailed) failedLookups.push(`${policyHost} A/AAAA`);
  if (!hasRecord && policy && !lookupFailed(stsAnswer)) {
    findings.push({
      severity: 'info',
      code: 'mta_sts_policy_without_record',
      message: `A policy is served at ${policyUrl}, but without the _mta-sts record senders never fetch it.`,
    });
  }

  if (policy) {
    if (policy.mode === 'testing') {
      findings.push({
        severity: 'warning',
        code: 'mta_sts_mode_testing',
        message:
          'The policy is in testing mode: failures are only reported, mail is still delivered over unauthenticated TLS or plain text. Switch to "mode: enforce" once TLS-RPT reports are clean.',
      });
    } else if (policy.mode === 'none') {
      findings.push({
        severity: 'warning',
        code: 'mta_sts_mode_none',
        message: 'The policy mode is none, which withdraws MTA-STS protection. Use "mode: enforce" (or "testing" while you check reports).',
      });
    }
    if (policy.maxAge < ONE_DAY) {
      findings.push({
        severity: 'warning',
        code: 'mta_sts_max_age_short',
        message: `max_age is ${policy.maxAge} seconds, under one day, so senders forget the policy quickly and a downgrade attack can wait it out. Use weeks, such as 604800 or more.`,
      });
    }
  }
  return { policy, policyError };
}

// --- MX hosts against the policy (section 4.1) ---
function matchMxHosts(mxAnswer: DnsAnswer<'MX'>, domain: string, policy: MtaStsPolicy | null, sinks: Sinks): MtaStsMxHost[] {
  const { findings, failedLookups } = sinks;
  let mxHosts: MtaStsMxHost[] = [];
  if (lookupFailed(mxAnswer)) {
    failedLookups.push(`${domain} MX`);
    findings.push({
      severity: 'error',
      code: 'mta_sts_mx_lookup_failed',
      message: `Looking up MX ${domain} failed (${failureOf(mxAnswer)}), so the MX hosts could not be matched against the policy.`,
    });
  } else if (mxAnswer.ok) {
    const real = [...mxAnswer.records]
      .sort((a, b) => a.data.preference - b.data.preference)
      .map((r) => r.data.exchange.toLowerCase().replace(/\.$/, ''))
      // A null MX (RFC 7505, exchange ".") means the domain takes no mail; it is no host to match.
      .filter((host, i, all) => host !== '' && all.indexOf(host) === i);
    mxHosts = real.map((host) => ({ host, matchesPolicy: policy ? policy.mx.some((p) => mxMatchesPattern(host, p)) : null }));
    if (policy && policy.mode !== 'none') {
      for (const mx of mxHosts.filter((m) => m.matchesPolicy === false)) {
        findings.push({
          severity: policy.mode === 'enforce' ? 'error' : 'warning',
          code: 'mta_sts_mx_not_covered',
          message: `The MX host ${mx.host} matches no mx pattern in the policy (${policy.mx.join(', ') || 'none'}); ${policy.mode === 'enforce' ? 'senders enforcing the policy will refuse to deliver to it' : 'in enforce mode senders would refuse to deliver to it'}. Add "mx: ${mx.host}" or a matching "*." pattern.`,
        });
      }
    }
  }
  if (mxHosts.length === 0 && !lookupFailed(mxAnswer)) {
    findings.push({ severity: 'info', code: 'mta_sts_no_mx', message: `${domain} publishes no MX host, so there is nothing for the policy to cover.` });
  }
  return mxHosts;
}

// --- TLS-RPT (RFC 8460 section 3) ---
function readTlsRpt(rptAnswer: DnsAnswer<'TXT'>, domain: string, sinks: Sinks): TlsRptSummary | null {
  const { findings, failedLookups } = sinks;
  let tlsRpt: TlsRptSummary | null = null;
  if (lookupFailed(rptAnswer)) {
    failedLookups.push(`_smtp._tls.${domain} TXT`);
    findings.push({
      severity: 'error',
      code: 'mta_sts_tls_rpt_lookup_failed',
      message: `Looking up TXT _smtp._tls.${domain} failed (${failureOf(rptAnswer)}).`,
    });
  } else {
    const rpt = texts(rptAnswer).filter(isTlsRptRecord);
    if (rpt.length === 0) {
      findings.push({
        severity: 'warning',
        code: 'mta_sts_no_tls_rpt',
        message: `No TLS-RPT record at _smtp._tls.${domain}: publish "v=TLSRPTv1; rua=mailto:tls-reports@${domain}" to learn when senders fail to deliver securely.`,
      });
    } else {
      const parsed = parseTlsRptRecord(rpt[0]!);
      const problems = [...parsed.problems];
      if (rpt.length > 1) problems.unshift(`there are ${rpt.length} v=TLSRPTv1 records and senders ignore all of them (RFC 8460 section 3); keep one`);
      tlsRpt = { record: rpt[0]!, rua: parsed.rua, valid: problems.length === 0 };
      for (const problem of problems) {
        findings.push({ severity: 'warning', code: 'mta_sts_tls_rpt_invalid', message: `The TLS-RPT record is not usable: ${problem}.` });
      }
    }
  }
  return tlsRpt;
}

function readPolicy(
  fetched: HttpsFetchResult,
  url: string,
  host: string,
): {
  policy: MtaStsPolicy | null;
  policyError: string | null;
  policyFindings: Finding[];
  dnsFailed: boolean;
} {
  const fail = (code: string, message: string, dnsFailed = false) => ({
    policy: null,
    policyError: message,
    policyFindings: [{ severity: 'error' as const, code, message }],
    dnsFailed,
  });
  if (!fetched.ok) {
    switch (fetched.code) {
      case 'certificate_invalid':
        return fail(
          'mta_sts_policy_certificate_invalid',
          `${fetched.reason} Senders require a valid certificate for ${host} (RFC 8461 section 3.3), so the policy is ignored.`,
        );
      case 'too_large':
        return fail('mta_sts_policy_too_large', `The policy file is larger than ${POLICY_MAX_BYTES} bytes; a policy is a few lines.`);
      case 'dns_failed':
        return fail('mta_sts_policy_lookup_failed', fetched.reason, true);
      case 'no_address':
        return fail(
          'mta_sts_policy_unreachable',
          `${host} has no A or AAAA record, so the policy at ${url} cannot be fetched. Point ${host} at a web server with a certificate for that name.`,
        );
      default:
        return fail('mta_sts_policy_unreachable', `The policy at ${url} could not be fetched: ${fetched.reason}`);
    }
  }
  if (fetched.status >= 300 && fetched.status < 400) {
    const where = fetched.headers.location ? ` to ${fetched.headers.location}` : '';
    return fail(
      'mta_sts_policy_redirect',
      `${url} redirects${where} (HTTP ${fetched.status}); senders must not follow redirects (RFC 8461 section 3.3). Serve the file directly.`,
    );
  }
  if (fetched.status !== 200) {
    return fail('mta_sts_policy_http_status', `${url} answered HTTP ${fetched.status}; only a 200 answer is a policy (RFC 8461 section 3.3).`);
  }
  const findings: Finding[] = [];
  const mediaType = (fetched.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'text/plain') {
    findings.push({
      severity: 'error',
      code: 'mta_sts_policy_media_type',
      message: `The policy is served as "${mediaType || 'no media type'}"; RFC 8461 section 3.2 requires text/plain, and strict senders ignore anything else.`,
    });
  }
  const parsed = parseMtaStsPolicy(fetched.body.toString('utf8'));
  for (const error of parsed.errors) {
    findings.push({ severity: 'error', code: 'mta_sts_policy_invalid', message: `The policy file is invalid: ${error}.` });
  }
  for (const warning of parsed.warnings) {
    findings.push({ severity: 'warning', code: 'mta_sts_policy_duplicate_field', message: `In the policy file ${warning}.` });
  }
  return {
    policy: parsed.policy,
    policyError: parsed.policy ? null : `The policy file is invalid: ${parsed.errors.join('; ')}.`,
    policyFindings: findings,
    dnsFailed: false,
  };
}

function summarize(domain: string, status: string, failedLookups: string[], findings: Finding[], policy: MtaStsPolicy | null, mxHosts: MtaStsMxHost[]): string {
  if (status === 'error') return `Some lookups for ${domain} failed (${failedLookups.join(', ')}), so MTA-STS could not be fully checked; try again.`;
  const errors = findings.filter((f) => f.severity === 'error');
  if (errors.length > 0)
    return `MTA-STS for ${domain} is not working: ${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : ''}`;
  const mode = policy ? `in ${policy.mode} mode` : 'published';
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  return `MTA-STS for ${domain} is ${mode}, covering ${mxHosts.length} MX host${mxHosts.length === 1 ? '' : 's'}${warnings > 0 ? `, with ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`;
}
