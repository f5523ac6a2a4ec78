import type { TaskFunction, TaskName } from './job-types.js';
import { sweep } from './sweep.js';
import { buildDomain } from './build-domain.js';
import { monitorDomain } from './monitor-domain.js';
import { checkDomainSetupTask } from './check-domain-setup.js';
import { fanOutEvent } from './fan-out-event.js';
import { deliverWebhook } from './deliver-webhook.js';
import { sendAlertEmail } from './send-alert-email.js';
import { probeDnsblLiveness } from './probe-dnsbl-liveness.js';
import { checkMailboxes } from './check-mailboxes.js';
import { suspendMailboxes } from './suspend-mailboxes.js';
import { reactivateMailboxes } from './reactivate-mailboxes.js';
import { dmarcRampTask } from './dmarc-ramp.js';
import { issueForwardingCertificate } from './issue-forwarding-certificate.js';

/** The one table of task functions, run by graphile-worker on PostgreSQL and in-process on PGlite. */
export const TASKS: Record<TaskName, TaskFunction> = {
  sweep,
  build_domain: buildDomain,
  check_domain_setup: checkDomainSetupTask,
  monitor_domain: monitorDomain,
  fan_out_event: fanOutEvent,
  deliver_webhook: deliverWebhook,
  send_alert_email: sendAlertEmail,
  probe_dnsbl_liveness: probeDnsblLiveness,
  check_mailboxes: checkMailboxes,
  suspend_mailboxes: suspendMailboxes,
  reactivate_mailboxes: reactivateMailboxes,
  dmarc_ramp: dmarcRampTask,
  issue_forwarding_certificate: issueForwardingCertificate,
};
