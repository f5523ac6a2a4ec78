import type { Migration } from 'kysely';
import * as createAccountTables from './migrations/2026_11_25_0900_create_account_tables.js';
import * as orderingTables from './migrations/2026_11_26_0900_ordering_tables.js';
import * as promotionRedemptions from './migrations/2026_11_26_1200_promotion_redemptions.js';
import * as domainReservations from './migrations/2026_11_26_1300_domain_reservations.js';
import * as accountLimitsAndKeyUse from './migrations/2026_11_26_1400_account_limits_and_key_use.js';
import * as domainMailboxCount from './migrations/2026_11_26_1500_domain_mailbox_count.js';
import * as jobsEventsWebhooks from './migrations/2026_11_26_1500_jobs_events_webhooks.js';
import * as usersAndSessions from './migrations/2026_11_26_1600_users_and_sessions.js';
import * as domainVerification from './migrations/2026_11_26_1700_domain_verification.js';
import * as workerHeartbeats from './migrations/2026_11_26_1830_worker_heartbeats.js';
import * as webhookAttempts from './migrations/2026_11_27_0900_webhook_attempts.js';
import * as invitationsAndSignUps from './migrations/2026_11_27_1000_invitations_and_sign_ups.js';
import * as invoicePayments from './migrations/2026_11_27_1100_invoice_payments.js';
import * as domainSetup from './migrations/2026_11_27_1200_domain_setup.js';
import * as dnsConnections from './migrations/2026_11_27_1230_dns_connections.js';
import * as statusValues from './migrations/2026_11_28_0800_status_values.js';
import * as keyExpiry from './migrations/2026_11_28_0810_key_expiry.js';
import * as dnsblLiveness from './migrations/2026_11_28_0900_dnsbl_liveness.js';
import * as reports from './migrations/2026_11_28_1100_reports.js';
import * as mailboxAccounts from './migrations/2026_11_28_1200_mailbox_accounts.js';
import * as oauth from './migrations/2026_11_29_0100_oauth.js';
import * as reportPtrAndAlertThreshold from './migrations/2026_11_29_0400_report_ptr_and_alert_threshold.js';
import * as setupApplies from './migrations/2026_11_29_0600_setup_applies.js';
import * as secretsCanary from './migrations/2026_11_30_0100_secrets_canary.js';
import * as referredAccounts from './migrations/2026_11_30_0300_referred_accounts.js';
import * as reportAuthenticated from './migrations/2026_11_30_0300_report_authenticated.js';
import * as reportDuplicatesPerAccount from './migrations/2026_11_30_0310_report_duplicates_per_account.js';
import * as dmarcRamp from './migrations/2026_12_01_0100_dmarc_ramp.js';
import * as forwardingCertificates from './migrations/2026_12_01_0200_forwarding_certificates.js';
import * as orderReinstatement from './migrations/2026_12_01_0300_order_reinstatement.js';

/**
 * Every migration, by name, in order. Listed here rather than read from the folder at run time so
 * that tsx, vitest and a bundler all load them the same way; a new migration is a new line.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_25_0900_create_account_tables': createAccountTables,
  '2026_11_26_0900_ordering_tables': orderingTables,
  '2026_11_26_1200_promotion_redemptions': promotionRedemptions,
  '2026_11_26_1300_domain_reservations': domainReservations,
  '2026_11_26_1400_account_limits_and_key_use': accountLimitsAndKeyUse,
  '2026_11_26_1500_domain_mailbox_count': domainMailboxCount,
  '2026_11_26_1500_jobs_events_webhooks': jobsEventsWebhooks,
  '2026_11_26_1600_users_and_sessions': usersAndSessions,
  '2026_11_26_1700_domain_verification': domainVerification,
  '2026_11_26_1830_worker_heartbeats': workerHeartbeats,
  '2026_11_27_0900_webhook_attempts': webhookAttempts,
  '2026_11_27_1000_invitations_and_sign_ups': invitationsAndSignUps,
  '2026_11_27_1100_invoice_payments': invoicePayments,
  '2026_11_27_1200_domain_setup': domainSetup,
  '2026_11_27_1230_dns_connections': dnsConnections,
  '2026_11_28_0800_status_values': statusValues,
  '2026_11_28_0810_key_expiry': keyExpiry,
  '2026_11_28_0900_dnsbl_liveness': dnsblLiveness,
  '2026_11_28_1100_reports': reports,
  '2026_11_28_1200_mailbox_accounts': mailboxAccounts,
  '2026_11_29_0100_oauth': oauth,
  '2026_11_29_0400_report_ptr_and_alert_threshold': reportPtrAndAlertThreshold,
  '2026_11_29_0600_setup_applies': setupApplies,
  '2026_11_30_0100_secrets_canary': secretsCanary,
  '2026_11_30_0300_referred_accounts': referredAccounts,
  '2026_11_30_0300_report_authenticated': reportAuthenticated,
  '2026_11_30_0310_report_duplicates_per_account': reportDuplicatesPerAccount,
  '2026_12_01_0100_dmarc_ramp': dmarcRamp,
  '2026_12_01_0200_forwarding_certificates': forwardingCertificates,
  '2026_12_01_0300_order_reinstatement': orderReinstatement,
};
