import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findSourcesSeenBefore } from '../../db/dmarc-report-rows.js';
import { findAccountDmarcAlertPassRate } from '../../db/accounts.js';
import { recordEvent } from '../events/record-event.js';
import type { DmarcReport } from './parse-dmarc.js';
import type { TlsReport } from './parse-tls-rpt.js';

/** Below this DMARC pass rate (percent) a report raises dmarc.failures, unless the account set its own (accounts.dmarc_alert_pass_rate, PUT /v1/alerts/settings) ... */
export const DMARC_ALERT_PASS_RATE = 90;
/** ... when it counts at least this many messages (a handful of forwarded messages is not news). */
export const DMARC_ALERT_MIN_MESSAGES = 10;

/**
 * The alerts one stored report may raise (docs/reports.md, "Alerts"): dmarc.failures when the
 * report's DMARC pass rate is under the account's threshold (DMARC_ALERT_PASS_RATE by default), or when an address never reported before
 * for the domain sends failing mail as it; tls.failures when a TLS-RPT report counts failed
 * sessions. At most one of each per domain and day of receipt (the event id is made from them); the
 * sweep fans events out to webhooks and alert e-mails. Returns the ids of events recorded.
 */
export async function raiseReportAlerts(
  db: Kysely<Database>,
  owner: { readonly account_id: number; readonly domain_id: number },
  report: DmarcReport | TlsReport,
  reportRowId: number,
  day: string,
  receivedAt: Date,
): Promise<string[]> {
  // At most one of each per domain and day of RECEIPT: the report's own dates are the sender's to write.
  const receiptDay = receivedAt.toISOString().slice(0, 10);
  if (report.kind === 'tls') {
    const failed = report.policies.reduce((s, p) => s + p.failedSessions, 0);
    if (failed === 0) return [];
    const successful = report.policies.reduce((s, p) => s + p.successfulSessions, 0);
    const types = [...new Set(report.policies.flatMap((p) => p.failures.map((f) => f.resultType)))];
    const id = await recordEvent(
      db,
      owner.account_id,
      'tls.failures',
      {
        domain: report.domain,
        day,
        reporter: report.orgName,
        failed_sessions: failed,
        successful_sessions: successful,
        result_types: types,
        message: `${report.orgName} reports ${failed} of ${failed + successful} TLS sessions to ${report.domain} failed on ${day}${types.length ? ` (${types.join(', ')})` : ''}. Check the MTA-STS policy and the MX certificates.`,
      },
      `evt_tls_failures_${owner.domain_id}_${receiptDay}`,
    );
    return id ? [id] : [];
  }
  const messages = report.records.reduce((s, r) => s + r.count, 0);
  const passed = report.records.filter((r) => r.dmarcPass).reduce((s, r) => s + r.count, 0);
  const passRate = messages > 0 ? Math.round((passed / messages) * 1000) / 10 : 100;
  const failing = new Map<string, number>();
  for (const r of report.records) if (!r.dmarcPass) failing.set(r.sourceIp, (failing.get(r.sourceIp) ?? 0) + r.count);
  const seen = await findSourcesSeenBefore(db, owner.domain_id, [...failing.keys()], reportRowId);
  const newFailing = [...failing.entries()].filter(([ip]) => !seen.has(ip));
  const threshold = (await findAccountDmarcAlertPassRate(db, owner.account_id)) ?? DMARC_ALERT_PASS_RATE;
  const lowRate = messages >= DMARC_ALERT_MIN_MESSAGES && passRate < threshold;
  if (!lowRate && newFailing.length === 0) return [];
  const why = lowRate
    ? `only ${passRate}% of ${messages} messages passed DMARC (under ${threshold}%)`
    : `${newFailing.length} address${newFailing.length === 1 ? '' : 'es'} never seen before sent mail as it that failed DMARC (${newFailing
        .slice(0, 5)
        .map(([ip]) => ip)
        .join(', ')})`;
  const id = await recordEvent(
    db,
    owner.account_id,
    'dmarc.failures',
    {
      domain: report.domain,
      day,
      reporter: report.orgName,
      messages,
      pass_rate: passRate,
      threshold,
      failing_sources: [...failing.entries()].slice(0, 20).map(([source_ip, count]) => ({ source_ip, messages: count })),
      new_failing_sources: newFailing.slice(0, 20).map(([source_ip, count]) => ({ source_ip, messages: count })),
      message: `${report.orgName} reports that for ${report.domain} on ${day} ${why}. The portal's Analytics page shows who sends mail as the domain.`,
    },
    `evt_dmarc_failures_${owner.domain_id}_${receiptDay}`,
  );
  return id ? [id] : [];
}
