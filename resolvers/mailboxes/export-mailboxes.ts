import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findOwnedOrder } from '../changes/find-owned.js';
import { recordEvent } from '../events/record-event.js';
import { findMailboxSecretsOfOrder } from '../../db/mailboxes.js';
import { passwordOf, provider, refuseSuspendedOrder, statusOf } from './domain-mailboxes.js';
import type { MailConnection } from '../../clients/mailboxes/mailbox-provider.js';
import type { Sequencer } from '../changes/sequencers.js';

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

type Cell = (m: ExportRow) => string | number;

/** A format from its columns in order, each with the value it takes from a mailbox (name and value side by side, so they cannot drift apart). */
function layout(cells: readonly (readonly [string, Cell])[]): ExportFormat {
  return { columns: cells.map(([name]) => name), row: (m) => cells.map(([, value]) => value(m)) };
}

/**
 * The daily sending cap and warm-up written where a template has columns for them: 30 a day with
 * warm-up on is the usual start for a new Google Workspace inbox (docs/mailboxes.md); the customer
 * changes them in the sequencer after the import.
 */
export const EXPORT_DAILY_LIMIT = 30;

const email: Cell = (m) => m.email;
const firstName: Cell = (m) => m.firstName;
const lastName: Cell = (m) => m.lastName;
const fullName: Cell = (m) => `${m.firstName} ${m.lastName}`;
const password: Cell = (m) => m.password;
const imapHost: Cell = (m) => m.connection.imapHost;
const imapPort: Cell = (m) => m.connection.imapPort;
const smtpHost: Cell = (m) => m.connection.smtpHost;
const smtpPort: Cell = (m) => m.connection.smtpPort;
/** Implicit TLS on 465 and 993; STARTTLS on the submission port (587) and anything else. */
const securityOf = (port: number): 'ssl' | 'starttls' => (port === 465 || port === 993 ? 'ssl' : 'starttls');
const dailyLimit: Cell = () => EXPORT_DAILY_LIMIT;

const generic = layout([
  ['email', email],
  ['first_name', firstName],
  ['last_name', lastName],
  ['username', email],
  ['password', password],
  ['imap_host', imapHost],
  ['imap_port', imapPort],
  ['imap_security', (m) => securityOf(m.connection.imapPort)],
  ['smtp_host', smtpHost],
  ['smtp_port', smtpPort],
  ['smtp_security', (m) => securityOf(m.connection.smtpPort)],
]);

/**
 * The CSV formats, one per sequencer an order can name (resolvers/changes/sequencers.ts) plus
 * `generic`. docs/mailboxes.md lists the columns and where each came from: Instantly, Smartlead,
 * Saleshandy, PlusVibe, Reply.io, Woodpecker, QuickMail and Emelia take a bulk import of IMAP/SMTP
 * accounts from a CSV, and their formats follow those templates as we know them (not checked against
 * the products: no internet here). lemlist, Apollo.io, Mailshake, Outreach, Salesloft and HubSpot
 * take no CSV of mailboxes (OAuth, or one custom SMTP account at a time), so their formats are the
 * generic IMAP/SMTP columns, which a person copies from.
 */
export const EXPORT_FORMATS = {
  generic,
  instantly: layout([
    ['Email', email],
    ['First Name', firstName],
    ['Last Name', lastName],
    ['IMAP Username', email],
    ['IMAP Password', password],
    ['IMAP Host', imapHost],
    ['IMAP Port', imapPort],
    ['SMTP Username', email],
    ['SMTP Password', password],
    ['SMTP Host', smtpHost],
    ['SMTP Port', smtpPort],
  ]),
  smartlead: layout([
    ['from_name', fullName],
    ['from_email', email],
    ['user_name', email],
    ['password', password],
    ['smtp_host', smtpHost],
    ['smtp_port', smtpPort],
    ['imap_host', imapHost],
    ['imap_port', imapPort],
  ]),
  lemlist: generic,
  apollo: generic,
  reply: layout([
    ['Email', email],
    ['Sender Name', fullName],
    ['SMTP Host', smtpHost],
    ['SMTP Port', smtpPort],
    ['SMTP Login', email],
    ['SMTP Password', password],
    ['SMTP SSL', (m) => String(securityOf(m.connection.smtpPort) === 'ssl')],
    ['IMAP Host', imapHost],
    ['IMAP Port', imapPort],
    ['IMAP Login', email],
    ['IMAP Password', password],
    ['IMAP SSL', (m) => String(securityOf(m.connection.imapPort) === 'ssl')],
    ['Daily Limit', dailyLimit],
  ]),
  woodpecker: layout([
    ['email', email],
    ['from_name', fullName],
    ['smtp_server', smtpHost],
    ['smtp_port', smtpPort],
    ['smtp_login', email],
    ['smtp_password', password],
    ['imap_server', imapHost],
    ['imap_port', imapPort],
    ['imap_login', email],
    ['imap_password', password],
    ['daily_limit', dailyLimit],
  ]),
  saleshandy: layout([
    ['First Name', firstName],
    ['Last Name', lastName],
    ['Email', email],
    ['SMTP Username', email],
    ['SMTP Password', password],
    ['SMTP Host', smtpHost],
    ['SMTP Port', smtpPort],
    ['SMTP Encryption', (m) => (securityOf(m.connection.smtpPort) === 'ssl' ? 'SSL' : 'TLS')],
    ['IMAP Username', email],
    ['IMAP Password', password],
    ['IMAP Host', imapHost],
    ['IMAP Port', imapPort],
    ['IMAP Encryption', (m) => (securityOf(m.connection.imapPort) === 'ssl' ? 'SSL' : 'TLS')],
    ['Daily Sending Limit', dailyLimit],
  ]),
  outreach: generic,
  salesloft: generic,
  hubspot: generic,
  mailshake: generic,
  quickmail: layout([
    ['Email', email],
    ['First Name', firstName],
    ['Last Name', lastName],
    ['SMTP Host', smtpHost],
    ['SMTP Port', smtpPort],
    ['SMTP Username', email],
    ['SMTP Password', password],
    ['IMAP Host', imapHost],
    ['IMAP Port', imapPort],
    ['IMAP Username', email],
    ['IMAP Password', password],
  ]),
  emelia: layout([
    ['email', email],
    ['firstName', firstName],
    ['lastName', lastName],
    ['smtpHost', smtpHost],
    ['smtpPort', smtpPort],
    ['smtpLogin', email],
    ['smtpPassword', password],
    ['imapHost', imapHost],
    ['imapPort', imapPort],
    ['imapLogin', email],
    ['imapPassword', password],
    ['dailyLimit', dailyLimit],
    ['warmup', () => 'true'],
  ]),
  plusvibe: layout([
    ['Email', email],
    ['First Name', firstName],
    ['Last Name', lastName],
    ['IMAP Username', email],
    ['IMAP Password', password],
    ['IMAP Host', imapHost],
    ['IMAP Port', imapPort],
    ['SMTP Username', email],
    ['SMTP Password', password],
    ['SMTP Host', smtpHost],
    ['SMTP Port', smtpPort],
    ['Daily Limit', dailyLimit],
    ['Warmup Enabled', () => 'TRUE'],
  ]),
} as const satisfies Record<'generic' | Exclude<Sequencer, 'other' | 'none'>, ExportFormat>;

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
    throw new DomainError(
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
    if (password === null) throw new DomainError('internal', 'An active mailbox had no password.');
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
