import { listAlertRecipientEmails, replaceAlertRecipients } from '../../db/alert-recipients.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

/** Extra addresses per account: a team list or an on-call alias or two, bounded so alerts cannot fan out without end. */
export const MAX_ALERT_RECIPIENTS = 10;

/** The addresses alert e-mails go to besides the account's people (who always get them). */
export interface AlertRecipients {
  readonly emails: readonly string[];
  readonly maxEmails: number;
}

export interface AlertRecipientsInput {
  readonly emails?: readonly string[] | null;
}

/**
 * A shape check (the mail is the proof), compared and stored lower-cased. The local part is kept to
 * plain characters: no commas, quotes or angle brackets a mailer would read as a second address.
 */
const ADDRESS = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}$/;

function checkEmails(input: AlertRecipientsInput): string[] {
  if (!Array.isArray(input.emails)) {
    throw new DomainError(
      'invalid_alert_recipients',
      'Send "emails": the list of addresses that should receive alert e-mails besides your people ([] for none).',
    );
  }
  const emails = [...new Set(input.emails.map((e) => String(e).trim().toLowerCase()))];
  const wrong = input.emails.map((e, index) => ({ e: String(e), index })).filter(({ e }) => !ADDRESS.test(e.trim().toLowerCase()) || e.trim().length > 254);
  if (wrong.length > 0) {
    const first = wrong[0]!;
    throw new DomainError(
      'invalid_email',
      `emails[${first.index}] ("${first.e.slice(0, 80)}") is not an e-mail address; send addresses such as ops@example.com.`,
      {
        invalid: wrong.slice(0, MAX_ALERT_RECIPIENTS).map(({ e, index }) => ({ index, email: e.slice(0, 254) })),
      },
    );
  }
  if (emails.length > MAX_ALERT_RECIPIENTS) {
    throw new DomainError(
      'too_many_alert_recipients',
      `An account may have ${MAX_ALERT_RECIPIENTS} extra alert addresses; you sent ${emails.length}. Use a team list address for more people.`,
    );
  }
  return emails.sort();
}

async function readEmails(ctx: Context, accountId: number): Promise<string[]> {
  return listAlertRecipientEmails(ctx.services.db, accountId);
}

export async function getAlertRecipients(ctx: Context): Promise<AlertRecipients> {
  const accountId = await requireAccountId(ctx);
  return { emails: await readEmails(ctx, accountId), maxEmails: MAX_ALERT_RECIPIENTS };
}

/**
 * Replaces the list (the answer is the list as stored: trimmed, lower-cased, each once). Events
 * already fanned out keep their recipients; the next event goes to the new list.
 */
export async function setAlertRecipients(input: AlertRecipientsInput, ctx: Context): Promise<AlertRecipients> {
  const accountId = await requireAccountId(ctx);
  const emails = checkEmails(input);
  await ctx.services.db
    .transaction()
    .execute((trx) => replaceAlertRecipients(trx, accountId, emails))
    .catch((error: unknown) => {
      // Two replacements at once for one account: the later one's insert meets the earlier one's rows.
      if (typeof error === 'object' && error !== null && 'code' in error && error.code === '23505')
        throw new DomainError('conflict', 'The list was changed by another request at the same moment; read it and send yours again.');
      throw error;
    });
  return { emails, maxEmails: MAX_ALERT_RECIPIENTS };
}
