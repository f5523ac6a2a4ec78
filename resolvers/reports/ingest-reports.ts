import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findReportDomainOwner, insertReport } from '../../db/reports.js';
import { insertDmarcReportRows } from '../../db/dmarc-report-rows.js';
import { insertTlsReportPolicies } from '../../db/tls-report-policies.js';
import { recordReportFile } from '../../observability/metrics.js';
import { log } from '../../observability/log.js';
import type { DmarcRecord } from './parse-dmarc.js';
import type { TlsPolicySummary } from './parse-tls-rpt.js';
import type { ParsedReport } from './read-reports.js';
import { readReportItems, type ReportInTransit } from './report-transit.js';
import type { ReportLimits } from './report-limits.js';
import { raiseReportAlerts } from './report-alerts.js';
import type { ReportPool } from './report-pool.js';
import { isSignedByReporter } from './report-authenticity.js';

/** What became of one file: stored, already stored (duplicate), dropped (no account owns its domain) or refused (with why). */
export interface IngestedFile {
  readonly file: string;
  readonly status: 'stored' | 'duplicate' | 'unknown_domain' | 'refused';
  readonly kind: 'dmarc' | 'tls' | null;
  readonly reportId: string | null;
  readonly orgName: string | null;
  readonly domain: string | null;
  /** The stored report's id (stored only). */
  readonly id: number | null;
  /** Messages (DMARC) or sessions (TLS-RPT) in the report. */
  readonly messages: number | null;
  /** Signed by the reporting organisation (SMTP) or uploaded with the domain's account key; only these count and alert. */
  readonly authenticated: boolean;
  readonly code: string | null;
  readonly detail: string | null;
}

export interface IngestOptions {
  readonly via: 'smtp' | 'upload';
  /** An upload names the account: a report for a domain of another account (or none) is refused rather than stored. */
  readonly accountId?: number;
  readonly allowMessage: boolean;
  readonly limits?: ReportLimits;
  readonly now?: Date;
  /**
   * SMTP: the owned domains the message named before it was read (its subject and file names,
   * screen-report-message.ts); a report inside for any other domain is dropped, not stored.
   */
  readonly expectedDomains?: readonly string[];
  /** SMTP: the DNS servers the message's DKIM keys are asked of (DNS_SERVERS); a report is authenticated only when its reporter signed it. */
  readonly dkimDnsServers?: readonly string[];
}

/**
 * Reads every report in `bytes` and stores each once; never throws for bad input (each file's
 * outcome says why). Unpacking and parsing run in the report pool's threads (report-pool.ts), whose
 * bounded queue also bounds the inputs held at once: a full queue throws ReportPoolBusy.
 */
export async function ingestReports(db: Kysely<Database>, pool: ReportPool, name: string, bytes: Buffer, options: IngestOptions): Promise<IngestedFile[]> {
  const answer = await pool.read({
    name,
    bytes,
    allowMessage: options.allowMessage,
    dkimDnsServers: options.via === 'smtp' ? (options.dkimDnsServers ?? []) : null,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  if (answer.dkimError !== null) log('warn', 'report_dkim_unverified', { via: options.via, file: name.slice(0, 200), reason: answer.dkimError });
  const files: IngestedFile[] = [];
  for (const outcome of answer.files) {
    if ('refused' in outcome) {
      recordReportFile(options.via, 'unknown', 'refused', outcome.refused.code);
      log('warn', 'report_refused', { via: options.via, file: outcome.name.slice(0, 200), code: outcome.refused.code, detail: outcome.refused.detail });
      files.push(blank(outcome.name, 'refused', null, outcome.refused.code, outcome.refused.detail));
      continue;
    }
    // An upload comes with the account's key and is stored for its own domains only (checked below);
    // a message counts only when the reporting organisation signed it.
    const authenticated = options.via === 'upload' ? options.accountId !== undefined : isSignedByReporter(outcome.report.header, answer.dkim);
    files.push(await storeReport(db, outcome.name, outcome.report, authenticated, options));
  }
  return files;
}

async function storeReport(
  db: Kysely<Database>,
  file: string,
  transit: ReportInTransit,
  authenticated: boolean,
  options: IngestOptions,
): Promise<IngestedFile> {
  const { header: report, messages, passed } = transit;
  const base = { file, kind: report.kind, reportId: report.reportId, orgName: report.orgName, domain: report.domain, messages, authenticated };
  if (options.expectedDomains && !options.expectedDomains.includes(report.domain)) {
    recordReportFile(options.via, report.kind, 'unknown_domain');
    log('warn', 'report_domain_mismatch', { via: options.via, kind: report.kind, domain: report.domain, named: options.expectedDomains, org: report.orgName });
    return {
      ...base,
      status: 'unknown_domain',
      id: null,
      code: 'unknown_domain',
      detail: `The report is for ${report.domain}, which the message's subject and file names do not name (${options.expectedDomains.join(', ')}); it was dropped.`,
    };
  }
  const owner = await findReportDomainOwner(db, report.domain);
  if (!owner || (options.accountId !== undefined && owner.account_id !== options.accountId)) {
    recordReportFile(options.via, report.kind, 'unknown_domain');
    log('info', 'report_dropped', { via: options.via, kind: report.kind, domain: report.domain, org: report.orgName, report_id: report.reportId });
    const detail =
      options.accountId === undefined
        ? `No account has the domain ${report.domain}; the report was dropped.`
        : `The report is for ${report.domain}, which is not a domain of your account; upload reports for your own domains only.`;
    return { ...base, status: 'unknown_domain', id: null, code: 'unknown_domain', detail };
  }
  const day = dayOf(report.begin, report.end);
  const now = options.now ?? new Date();
  const id = await db.transaction().execute(async (trx) => {
    const reportRowId = await insertReport(trx, {
      kind: report.kind,
      account_id: owner.account_id,
      domain_id: owner.domain_id,
      domain: report.domain,
      org_name: report.orgName,
      org_email: report.kind === 'dmarc' ? report.orgEmail : null,
      report_id: report.reportId,
      schema_version: report.kind === 'dmarc' ? report.schema : null,
      begin_at: report.begin,
      end_at: report.end,
      policy: report.kind === 'dmarc' ? JSON.stringify(report.policy) : null,
      messages,
      messages_passed: passed,
      records: transit.items,
      skipped_records: report.kind === 'dmarc' ? report.skippedRecords : 0,
      received_via: options.via,
      authenticated,
    });
    if (reportRowId === null) return null;
    // The rows go in a chunk at a time, each chunk parsed just before (report-transit.ts), with a
    // turn of the event loop between chunks: the other requests are answered meanwhile.
    let full: ParsedReport;
    if (report.kind === 'dmarc') {
      const records: DmarcRecord[] = [];
      for await (const chunk of readReportItems<DmarcRecord>(transit.chunks)) {
        records.push(...chunk);
        await insertDmarcReportRows(trx, dmarcRows(chunk, reportRowId, owner.domain_id, day, authenticated));
      }
      full = { ...report, records };
    } else {
      const policies: TlsPolicySummary[] = [];
      for await (const chunk of readReportItems<TlsPolicySummary>(transit.chunks)) {
        policies.push(...chunk);
        await insertTlsReportPolicies(trx, tlsRows(chunk, reportRowId, owner.domain_id, day, authenticated));
      }
      full = { ...report, policies };
    }
    // The report and the alerts it raises commit together (the sweep fans the events out). Only a
    // report known to be its reporter's may alert, and only one whose period is near its receipt.
    if (authenticated && alertableDates(report, now)) await raiseReportAlerts(trx, owner, full, reportRowId, day, now);
    return reportRowId;
  });
  recordReportFile(options.via, report.kind, id === null ? 'duplicate' : 'stored');
  if (id === null)
    return {
      ...base,
      status: 'duplicate',
      id: null,
      code: 'duplicate',
      detail: `This report (${report.orgName}, ${report.reportId}) was already stored for ${report.domain}; it was not counted twice.`,
    };
  return { ...base, status: 'stored', id, code: null, detail: null };
}

function dmarcRows(records: readonly DmarcRecord[], reportRowId: number, domainId: number, day: string, authenticated: boolean) {
  return records.map((r) => ({
    authenticated,
    report_id: reportRowId,
    domain_id: domainId,
    day,
    source_ip: r.sourceIp,
    messages: r.count,
    disposition: r.disposition,
    dkim_aligned: r.dkimAligned,
    spf_aligned: r.spfAligned,
    dmarc_pass: r.dmarcPass,
    header_from: r.headerFrom,
    envelope_from: r.envelopeFrom,
    dkim_result: r.dkimResult,
    dkim_domain: r.dkimDomain,
    dkim_selector: r.dkimSelector,
    spf_result: r.spfResult,
    spf_domain: r.spfDomain,
    reasons: r.reasons.length > 0 ? r.reasons.join(',') : null,
  }));
}

function tlsRows(policies: readonly TlsPolicySummary[], reportRowId: number, domainId: number, day: string, authenticated: boolean) {
  return policies.map((p) => ({
    authenticated,
    report_id: reportRowId,
    domain_id: domainId,
    day,
    policy_type: p.policyType,
    policy_domain: p.policyDomain,
    mx_host: p.mxHost,
    successful_sessions: p.successfulSessions,
    failed_sessions: p.failedSessions,
    failures: JSON.stringify(
      p.failures.map((f) => ({
        result_type: f.resultType,
        sending_mta_ip: f.sendingMtaIp,
        receiving_mx_hostname: f.receivingMxHostname,
        failed_sessions: f.failedSessions,
      })),
    ),
  }));
}

/** A report may alert when its period ended at most this long before it arrived ... */
export const ALERT_MAX_AGE_DAYS = 60;
/** ... and began at most this far after it (clocks drift; a week ahead is a made-up date). */
export const ALERT_MAX_AHEAD_DAYS = 7;

/** Whether the report's period is near enough its receipt to alert: older or future-dated ones are stored and counted, silently. */
function alertableDates(report: ParsedReport, now: Date): boolean {
  const day = 86_400_000;
  return report.end.getTime() >= now.getTime() - ALERT_MAX_AGE_DAYS * day && report.begin.getTime() <= now.getTime() + ALERT_MAX_AHEAD_DAYS * day;
}

/** The report's day: the UTC day of its period's middle (receivers' days start at midnight UTC, or nearly). */
function dayOf(begin: Date, end: Date): string {
  return new Date((begin.getTime() + end.getTime()) / 2).toISOString().slice(0, 10);
}

function blank(file: string, status: IngestedFile['status'], kind: IngestedFile['kind'], code: string, detail: string): IngestedFile {
  return { file, status, kind, reportId: null, orgName: null, domain: null, id: null, messages: null, authenticated: false, code, detail };
}
