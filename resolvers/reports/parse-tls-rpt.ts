import { z } from 'zod';
import { REPORT_LIMITS, type ReportLimits } from './report-limits.js';
import { ReportRefusal } from './report-refusal.js';

export interface TlsFailure {
  /** RFC 8460 section 4.3 result-type: starttls-not-supported, certificate-expired, sts-policy-fetch-error, ... */
  readonly resultType: string;
  readonly sendingMtaIp: string | null;
  readonly receivingMxHostname: string | null;
  readonly failedSessions: number;
}

export interface TlsPolicySummary {
  /** sts, tlsa or no-policy-found. */
  readonly policyType: string;
  readonly policyDomain: string;
  readonly mxHost: string | null;
  readonly successfulSessions: number;
  readonly failedSessions: number;
  readonly failures: readonly TlsFailure[];
}

export interface TlsReport {
  readonly kind: 'tls';
  readonly orgName: string;
  /** `contact-info` (an address, usually): its domain is the reporting organisation's, which must sign the message (docs/reports.md). */
  readonly contact: string | null;
  readonly reportId: string;
  /** The domain of the first policy (a TLS-RPT report covers one policy domain in practice). */
  readonly domain: string;
  readonly begin: Date;
  readonly end: Date;
  readonly policies: readonly TlsPolicySummary[];
}

const count = z.union([
  z.number().int().nonnegative().max(1_000_000_000),
  z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
]);
const text = z.string().trim().min(1).max(500);

const failureSchema = z.object({
  'result-type': text,
  'sending-mta-ip': z.string().max(100).optional(),
  'receiving-mx-hostname': z.string().max(300).optional(),
  'failed-session-count': count.optional(),
});

const policySchema = z.object({
  policy: z.object({
    'policy-type': text,
    'policy-domain': text,
    'mx-host': z.union([z.string().max(300), z.array(z.string().max(300)).max(50)]).optional(),
  }),
  summary: z.object({
    'total-successful-session-count': count.optional(),
    'total-failure-session-count': count.optional(),
  }),
  'failure-details': z.array(z.unknown()).optional(),
});

const reportSchema = z.object({
  'organization-name': text,
  'date-range': z.object({ 'start-datetime': text, 'end-datetime': text }),
  'report-id': text,
  'contact-info': z.string().max(1000).optional(),
  policies: z.array(z.unknown()).min(1),
});

/** Reads a TLS-RPT report (RFC 8460 section 4.4) from decoded JSON text. */
export function parseTlsReport(json: string, limits: ReportLimits = REPORT_LIMITS): TlsReport {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    // A RangeError (nesting too deep for the parser) is bad input as well.
    throw new ReportRefusal('invalid_json', `The file is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const report = reportSchema.safeParse(value);
  if (!report.success) throw new ReportRefusal('not_a_report', `The JSON is not a TLS-RPT report (RFC 8460): ${describe(report.error)}.`);
  const data = report.data;
  if (data.policies.length > limits.maxTlsPolicies)
    throw new ReportRefusal('too_many_records', `The report has ${data.policies.length} policies; at most ${limits.maxTlsPolicies} are read.`);
  const begin = new Date(data['date-range']['start-datetime']);
  const end = new Date(data['date-range']['end-datetime']);
  if (Number.isNaN(begin.getTime()) || Number.isNaN(end.getTime()) || end < begin)
    throw new ReportRefusal('not_a_report', 'The date-range of the TLS-RPT report is not two RFC 3339 times, start before end.');
  const policies: TlsPolicySummary[] = [];
  for (const raw of data.policies) {
    const parsed = policySchema.safeParse(raw);
    if (!parsed.success) throw new ReportRefusal('not_a_report', `A policy of the TLS-RPT report is malformed: ${describe(parsed.error)}.`);
    const p = parsed.data;
    const details = p['failure-details'] ?? [];
    if (details.length > limits.maxTlsFailureDetails)
      throw new ReportRefusal('too_many_records', `A policy has ${details.length} failure-details; at most ${limits.maxTlsFailureDetails} are read.`);
    const failures: TlsFailure[] = [];
    for (const detail of details) {
      const f = failureSchema.safeParse(detail);
      if (!f.success) continue;
      failures.push({
        resultType: f.data['result-type'].toLowerCase(),
        sendingMtaIp: f.data['sending-mta-ip'] ?? null,
        receivingMxHostname: f.data['receiving-mx-hostname']?.toLowerCase() ?? null,
        failedSessions: f.data['failed-session-count'] ?? 0,
      });
    }
    const mx = p.policy['mx-host'];
    policies.push({
      policyType: p.policy['policy-type'].toLowerCase(),
      policyDomain: p.policy['policy-domain'].toLowerCase().replace(/\.$/, ''),
      mxHost: Array.isArray(mx) ? mx.join(', ') || null : (mx ?? null),
      successfulSessions: p.summary['total-successful-session-count'] ?? 0,
      failedSessions: p.summary['total-failure-session-count'] ?? 0,
      failures,
    });
  }
  const domain = policies[0]?.policyDomain ?? '';
  if (!/^[a-z0-9._-]{1,253}$/.test(domain)) throw new ReportRefusal('not_a_report', 'The first policy-domain of the TLS-RPT report is not a domain name.');
  return {
    kind: 'tls',
    orgName: data['organization-name'].slice(0, 200),
    contact: data['contact-info']?.slice(0, 200) ?? null,
    reportId: data['report-id'].slice(0, 200),
    domain,
    begin,
    end,
    policies,
  };
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'the report'}: ${issue.message}` : 'unreadable';
}
