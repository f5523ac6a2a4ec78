import { ApiError, badRequest } from '../api-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findOwnedOrder } from '../changes/find-owned.js';
import { recordEvent } from '../events/record-event.js';
import { findMailboxSecretsOfOrder } from '../../db/mailboxes.js';
import { passwordOf, provider, refuseSuspendedOrder, statusOf } from './domain-mailboxes.js';
import type { MailConnection } from './mailbox-provider.js';

/** One exported mailbox: what every format's columns are made from. */
interface ExportRow {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
  readonly connection: MailConnection;
}

interface ExportFormat {
  readonly columns: readonly string[];
  readonly row: (m: ExportRow) => readonly (string | number)[];
}

/**
 * The CSV formats (docs/mailboxes.md lists the columns and where each came from). Instantly and
 * Smartlead take a bulk import of SMTP/IMAP accounts in these columns; for every other sequencer an
 * order can name we have no template of its own, and the generic IMAP/SMTP format is its default
 * (their import dialogs map columns by hand).
 */
export const EXPORT_FORMATS = {
  generic: {
    columns: ['email', 'first_name', 'last_name', 'username', 'password', 'imap_host', 'imap_port', 'imap_security', 'smtp_host', 'smtp_port', 'smtp_security'],
    row: (m) => [
      m.email,
      m.firstName,
      m.lastName,
      m.email,
      m.password,
      m.connection.imapHost,
      m.connection.imapPort,
      'ssl',
      m.connection.smtpHost,
      m.connection.smtpPort,
      'starttls',
    ],
  },
  instantly: {
    columns: [
      'Email',
      'First Name',
      'Last Name',
      'IMAP Username',
      'IMAP Password',
      'IMAP Host',
      'IMAP Port',
      'SMTP Username',
      'SMTP Password',
      'SMTP Host',
      'SMTP Port',
    ],
    row: (m) => [
      m.email,
      m.firstName,
      m.lastName,
      m.email,
      m.password,
      m.connection.imapHost,
      m.connection.imapPort,
      m.email,
      m.password,
      m.connection.smtpHost,
      m.connection.smtpPort,
    ],
  },
  smartlead: {
    columns: ['from_name', 'from_email', 'user_name', 'password', 'smtp_host', 'smtp_port', 'imap_host', 'imap_port'],
    row: (m) => [
      `${m.firstName} ${m.lastName}`,
      m.email,
      m.email,
      m.password,
      m.connection.smtpHost,
      m.connection.smtpPort,
      m.connection.imapHost,
      m.connection.imapPort,
    ],
  },
} as const satisfies Record<string, ExportFormat>;

export type ExportFormatName = keyof typeof EXPORT_FORMATS;

function isExportFormat(value: string): value is ExportFormatName {
  return Object.hasOwn(EXPORT_FORMATS, value);
}

/** The format an order's sequencer imports; generic for the others (and none, other, unset). */
export function defaultExportFormat(sequencer: string | null): ExportFormatName {
  return sequencer !== null && isExportFormat(sequencer) ? sequencer : 'generic';
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(format: ExportFormat, rows: readonly ExportRow[]): string {
  return [format.columns, ...rows.map(format.row)].map((cells) => cells.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * GET /v1/portal/orders/{subscription_id}/export?format=...: the order's active mailboxes with their
 * passwords as CSV (pending ones have no password yet and suspended ones cannot connect, so neither
 * is in it). Handing out passwords is recorded as a mailbox.credentials_revealed event, as a reveal is.
 */
export async function exportOrderMailboxes(subscriptionId: string, rawFormat: string | null, ctx: Context): Promise<string> {
  const accountId = await requireAccountId(ctx);
  const wanted = rawFormat?.trim().toLowerCase() || null;
  if (wanted !== null && !isExportFormat(wanted))
    throw badRequest(
      'unknown_format',
      `"${rawFormat?.slice(0, 40)}" is not an export format; send format= one of ${Object.keys(EXPORT_FORMATS).join(', ')}, or leave it out for the order's sequencer's.`,
      { allowed: Object.keys(EXPORT_FORMATS) },
    );
  const order = await findOwnedOrder(ctx.services.db, accountId, subscriptionId);
  refuseSuspendedOrder(order.status, "the order's mailbox credentials");
  const formatName = wanted ?? defaultExportFormat(order.sequencer);
  const { connection } = provider(ctx);
  const rows: ExportRow[] = [];
  for (const m of await findMailboxSecretsOfOrder(ctx.services.db, order.id)) {
    if (statusOf(m.status) !== 'active') continue;
    const email = `${m.local_part}@${m.domain}`;
    const password = await passwordOf(ctx, m, email, 'active');
    if (password === null) throw new ApiError(500, 'internal', 'An active mailbox had no password.');
    rows.push({ email, firstName: m.first_name, lastName: m.last_name, password, connection });
  }
  const eventId = await recordEvent(ctx.services.db, accountId, 'mailbox.credentials_revealed', {
    order_id: order.id,
    subscription_id: order.subscription_id,
    mailboxes: rows.map((r) => r.email),
    export_format: formatName,
    door: ctx.door,
    message: `The passwords of ${rows.length} mailbox${rows.length === 1 ? '' : 'es'} of order ${order.subscription_id} were exported (${formatName} CSV). If that was not you, reset them (POST /v1/portal/mailboxes/{email}/password) and revoke the key.`,
  });
  if (eventId) await ctx.services.jobs?.eventRecorded(eventId);
  return toCsv(EXPORT_FORMATS[formatName], rows);
}
