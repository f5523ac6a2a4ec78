import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { log } from '../../observability/log.js';
import type { AlertMailer } from './alert-mailer.js';

/**
 * SMTP_URL set: alerts go out through nodemailer's SMTP transport. Unset: each alert is written as
 * an .eml file to ALERT_OUTBOX_DIR (default $DATA_DIR/outbox) and a log line, so a development setup
 * shows what would have been sent without a mail server.
 */
export function createAlertMailer(smtpUrl: string | null, from: string, outboxDir: string): AlertMailer {
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    return {
      transport: 'smtp',
      async send(mail) {
        await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, messageId: `<${mail.id}@alerts>` });
      },
      close: () => transporter.close(),
    };
  }
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'outbox',
    outboxDir: resolve(outboxDir),
    async send(mail) {
      const info = await writer.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, messageId: `<${mail.id}@alerts>` });
      const dir = resolve(outboxDir);
      // Reset and invitation links sign people in: the folder and each message are the service user's alone
      // (a folder made earlier with looser rights is tightened too).
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700);
      const file = join(dir, `${mail.id.replace(/[^a-zA-Z0-9_.-]/g, '_')}.eml`);
      // With buffer: true the stream transport hands back the message as a Buffer.
      const message: unknown = info.message;
      writeFileSync(file, Buffer.isBuffer(message) ? message : String(message), { mode: 0o600 });
      chmodSync(file, 0o600);
      log('info', 'alert e-mail written to the outbox (SMTP_URL is not set)', { to: mail.to, subject: mail.subject, file });
    },
    close: () => {},
  };
}
