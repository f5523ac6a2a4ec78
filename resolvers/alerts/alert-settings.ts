import { findAccountDmarcAlertPassRate, setAccountDmarcAlertPassRate } from '../../db/accounts.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { DMARC_ALERT_MIN_MESSAGES, DMARC_ALERT_PASS_RATE } from '../reports/report-alerts.js';

/** The account's alert thresholds (docs/reports.md, "Alerts"): each with where it comes from. */
export interface AlertSettings {
  /** dmarc.failures is raised when a report's DMARC pass rate (percent) is under this. */
  readonly dmarcPassRateThreshold: number;
  /** `account` when the account set it, `default` otherwise. */
  readonly dmarcPassRateThresholdSource: 'account' | 'default';
  readonly dmarcPassRateThresholdDefault: number;
  /** A report with fewer messages raises no pass-rate alert (not a setting). */
  readonly dmarcMinMessages: number;
}

export interface AlertSettingsInput {
  /** Percent, above 0 and at most 100, one decimal kept; null or left out: back to the default. */
  readonly dmarcPassRateThreshold?: number | null;
}

function settingsOf(own: number | null): AlertSettings {
  return {
    dmarcPassRateThreshold: own ?? DMARC_ALERT_PASS_RATE,
    dmarcPassRateThresholdSource: own === null ? 'default' : 'account',
    dmarcPassRateThresholdDefault: DMARC_ALERT_PASS_RATE,
    dmarcMinMessages: DMARC_ALERT_MIN_MESSAGES,
  };
}

export async function getAlertSettings(ctx: Context): Promise<AlertSettings> {
  const accountId = await requireAccountId(ctx);
  return settingsOf(await findAccountDmarcAlertPassRate(ctx.services.db, accountId));
}

/** Replaces the account's alert thresholds; the next stored report is judged by them. */
export async function setAlertSettings(input: AlertSettingsInput, ctx: Context): Promise<AlertSettings> {
  const accountId = await requireAccountId(ctx);
  const raw = input.dmarcPassRateThreshold ?? null;
  if (raw !== null && !(Number.isFinite(raw) && raw > 0 && raw <= 100))
    throw new DomainError(
      'invalid_threshold',
      `dmarc_pass_rate_threshold is a percentage above 0 and at most 100 (e.g. 95), not ${raw}; send null for the default of ${DMARC_ALERT_PASS_RATE}.`,
    );
  const own = raw === null ? null : Math.round(raw * 10) / 10;
  await setAccountDmarcAlertPassRate(ctx.services.db, accountId, own);
  return settingsOf(own);
}
