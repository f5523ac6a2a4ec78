import { awaitsRebuild } from './settle-build-state.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CheckContext } from '../../checks/check-context.js';
import type { ServiceConfig } from '../../../config/settings.js';
import { verificationToken } from '../../orders/domain-verification.js';
import { findDkimKey } from './dkim-keys.js';
import { GOOGLE_DKIM_SELECTOR } from './google-workspace.js';
import { dkimStatus, dmarcStatus, exactTxtStatus, forwardingStatus, mxStatus } from './record-status.js';
import { spfStatus } from './spf-record-status.js';
import { dmarcReportAddress, wantedRecords } from './wanted-records.js';
import { isBuildState, type DomainSetup, type WantedRecord, type WantedRecordWithStatus } from './setup-record.js';

/** What computing a setup needs: the database, the settings, and a check context (the request's, or a job's). */
export interface SetupEnvironment {
  readonly db: Kysely<Database>;
  readonly config: Pick<ServiceConfig, 'reportsDomain' | 'forwardTarget' | 'setupTlsRpt'>;
  readonly checks: CheckContext;
  readonly now: () => Date;
}

/** The columns of a domain row the setup reads. */
export interface SetupDomainRow {
  readonly id: number;
  readonly account_id: number;
  readonly order_id: number;
  readonly domain: string;
  readonly forward_to: string | null;
  readonly build_state: string;
  readonly build_reason: string | null;
  /** When the provider made the mailboxes (null: not yet); left out, read as made. */
  readonly mailboxes_created_at?: Date | string | null;
}

function judge(record: WantedRecord, env: SetupEnvironment): Promise<WantedRecordWithStatus> {
  const dns = env.checks.dns;
  switch (record.purpose) {
    case 'mx':
      return mxStatus(record, dns);
    case 'spf':
      return spfStatus(record, env.checks);
    case 'dkim':
      return dkimStatus(record, dns);
    case 'dmarc':
      return dmarcStatus(record, dns, dmarcReportAddress(env.config.reportsDomain));
    case 'forwarding':
      return forwardingStatus(record, dns);
    case 'verification':
      return exactTxtStatus(record, dns, /^inbox-verification=/);
    case 'tls_rpt':
      return exactTxtStatus(record, dns, /^v=TLSRPTv1/i);
  }
}

/** Why a domain is not live (or not yet): the failing required records, or the step it waits for. */
export function setupReason(records: readonly WantedRecordWithStatus[], hasDkimKey: boolean): string | null {
  const failing = records.filter((r) => r.required && r.status !== 'verified');
  const parts = failing.map((r) => `${r.purpose.toUpperCase()} (${r.name}) is ${r.status}: ${r.detail}`);
  if (!hasDkimKey) parts.push('The DKIM key is made when the build starts; its record appears here then.');
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * The one function behind the setup API, the zone snippet, the build and monitoring (and the
 * publishers): the records the domain needs, each with its status from our own checks, looked up
 * now through the given check context. `ready` when every required record is verified; the build
 * state is the domain's as stored (the jobs move it, see settle-build-state.ts).
 */
export async function computeDomainSetup(env: SetupEnvironment, domain: SetupDomainRow): Promise<DomainSetup> {
  const [key, token] = await Promise.all([findDkimKey(env.db, domain.id), verificationToken(env.db, domain.account_id)]);
  const wanted = wantedRecords(
    {
      domain: domain.domain,
      forwardTo: domain.forward_to,
      dkimPublicKey: key?.public_key ?? null,
      dkimSelector: key?.selector ?? GOOGLE_DKIM_SELECTOR,
      verificationToken: token,
    },
    { reportsDomain: env.config.reportsDomain, forwardTarget: env.config.forwardTarget, tlsRpt: env.config.setupTlsRpt },
  );
  const records = await Promise.all(wanted.map((r) => judge(r, env)));
  const ready = key !== undefined && records.every((r) => !r.required || r.status === 'verified');
  const buildState = isBuildState(domain.build_state) ? domain.build_state : 'queued';
  return {
    domain: domain.domain,
    buildState,
    ready,
    reason:
      buildState === 'live'
        ? null
        : awaitsRebuild(buildState, domain.mailboxes_created_at !== null) && domain.build_reason
          ? domain.build_reason
          : !ready
            ? setupReason(records, key !== undefined)
            : (domain.build_reason ?? 'Every record is verified; waiting for the mail provider to report the mailboxes created.'),
    checkedAt: env.now().toISOString(),
    records,
  };
}
