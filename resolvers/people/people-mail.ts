import { randomUUID } from 'node:crypto';
import type { AlertMailer } from '../../clients/mail/alert-mailer.js';
import { log } from '../../observability/log.js';
import type { LogIds } from '../../observability/log-ids.js';

/**
 * Sends a password-reset or invitation message through the service's mailer (SMTP_URL, else an .eml
 * file in ALERT_OUTBOX_DIR, $DATA_DIR/outbox by default). A failed send is logged, not shown: the
 * answer must not say whether an address has an account.
 */
export async function sendPeopleMail(mailer: AlertMailer | undefined, to: string, subject: string, text: string, logIds?: LogIds): Promise<void> {
  if (!mailer) {
    log('warn', 'no mailer: message not sent', { ...logIds, to, subject });
    return;
  }
  await mailer.send({ to, subject, text, id: `people-${randomUUID()}` }).catch((error: Error) => {
    log('error', 'message not sent', { ...logIds, to, subject, reason: error.message });
  });
}
