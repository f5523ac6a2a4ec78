import { DomainError, operation, sentence } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { normalizeDomain } from '../checks/normalize-domain.js';
import { findSetupDomain } from '../domains/setup/get-domain-setup.js';
import { recordEvent } from '../events/record-event.js';
import { decryptSecret, encryptSecret } from '../secrets/encrypt-secret.js';
import { findAccountMailbox, findMailboxesOfDomain, findMailboxSecretsOfDomain, setMailboxPassword } from '../../db/mailboxes.js';
import { findOrderStatus } from '../../db/orders.js';
import { isMailboxStatus, type MailboxProvider, type MailboxStatus } from '../../clients/mailboxes/mailbox-provider.js';
import { generateMailboxPassword, mailboxSealPurpose } from './mailbox-passwords.js';

/** One mailbox as lists show it: never a password. */
export interface MailboxListing {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly status: MailboxStatus;
}

/** One mailbox with what a sending tool needs to connect to it. */
export interface MailboxCredentials extends MailboxListing {
  readonly username: string;
  /** null while the mailbox is pending: the build makes its password when it creates it. */
  readonly password: string | null;
  readonly imapHost: string;
  readonly imapPort: number;
  readonly smtpHost: string;
  readonly smtpPort: number;
}

/**
 * Orders whose subscription is stopped (unpaid after the retries, cancelled, paused): their inboxes
 * are not handed out. past_due is still served while the processor retries the card.
 */
const SUSPENDED_ORDER_STATUSES = new Set(['unpaid', 'cancelled', 'paused']);

export function refuseSuspendedOrder(status: string, what: string): void {
  if (SUSPENDED_ORDER_STATUSES.has(status))
    throw new DomainError(
      'order_suspended',
      sentence`The order's subscription is ${status}, so ${what} are not available; pay its open invoice on the portal's Billing page (or ${operation('pay_invoices')}) and ask again.`,
      { order_status: status },
    );
}

export function provider(ctx: Context): MailboxProvider {
  const found = ctx.services.mailboxProvider;
  if (!found) throw new DomainError('provider_unavailable', 'The mailbox provider is not configured on this instance; try again shortly.');
  return found;
}

/** GET /v1/portal/domains/{domain}/mailboxes: the domain's mailboxes and each one's status at the provider. */
export async function listDomainMailboxes(raw: string, ctx: Context): Promise<{ domain: string; mailboxes: MailboxListing[] }> {
  const domain = await findSetupDomain(ctx, raw);
  const rows = await findMailboxesOfDomain(ctx.services.db, domain.id);
  return {
    domain: domain.domain,
    mailboxes: rows.map((m) => ({ email: `${m.local_part}@${domain.domain}`, firstName: m.first_name, lastName: m.last_name, status: statusOf(m.status) })),
  };
}

/**
 * POST /v1/portal/domains/{domain}/mailboxes/credentials: each mailbox with its password, opened
 * from its sealed copy. An active mailbox without one (made before passwords were kept) gets one now,
 * set at the provider first. Each reveal is recorded as a mailbox.credentials_revealed event naming
 * the addresses, never a password.
 */
export async function revealMailboxCredentials(raw: string, ctx: Context): Promise<{ domain: string; mailboxes: MailboxCredentials[] }> {
  const domain = await findSetupDomain(ctx, raw);
  const order = await findOrderStatus(ctx.services.db, domain.order_id);
  refuseSuspendedOrder(order.status, "this domain's mailbox credentials");
  const { db } = ctx.services;
  const rows = await findMailboxSecretsOfDomain(db, domain.id);
  const mailboxes: MailboxCredentials[] = [];
  for (const m of rows) {
    const email = `${m.local_part}@${domain.domain}`;
    const status = statusOf(m.status);
    const password = await passwordOf(ctx, m, email, status);
    mailboxes.push(credentialsOf(ctx, { email, firstName: m.first_name, lastName: m.last_name, status }, password));
  }
  const eventId = await recordEvent(db, domain.account_id, 'mailbox.credentials_revealed', {
    domain: domain.domain,
    order_id: domain.order_id,
    mailboxes: mailboxes.map((m) => m.email),
    door: ctx.door,
    message: `The passwords of ${mailboxes.length} mailbox${mailboxes.length === 1 ? '' : 'es'} on ${domain.domain} were shown to a caller of the account API. If that was not you, reset them (POST /v1/portal/mailboxes/{email}/password) and revoke the key.`,
  });
  if (eventId) await ctx.services.jobs?.eventRecorded(eventId);
  return { domain: domain.domain, mailboxes };
}

/**
 * POST /v1/portal/mailboxes/{email}/password: a new generated password, set at the provider, then
 * sealed in place of the old one (which is gone: no answer shows it again). Answers the mailbox's
 * credentials with the new password; records mailbox.password_reset without it.
 */
export async function resetMailboxPassword(rawEmail: string, ctx: Context): Promise<MailboxCredentials> {
  const accountId = await requireAccountId(ctx);
  const at = rawEmail.lastIndexOf('@');
  const localPart = rawEmail.slice(0, at).trim().toLowerCase();
  if (at <= 0 || localPart.length === 0 || localPart.length > 64)
    throw new DomainError(
      'invalid_mailbox_address',
      sentence`"${rawEmail.slice(0, 80)}" is not a mailbox address; send one of yours, e.g. ada@example.com (${operation('list_domain_mailboxes')} lists them).`,
    );
  const { domain } = normalizeDomain(rawEmail.slice(at + 1), 'email');
  const mailbox = await findAccountMailbox(ctx.services.db, accountId, localPart, domain);
  if (!mailbox)
    throw new DomainError(
      'mailbox_not_found',
      sentence`There is no mailbox ${localPart}@${domain} on your orders; ${operation('list_domain_mailboxes', { domain })} lists a domain's mailboxes.`,
    );
  refuseSuspendedOrder(mailbox.order_status, "this mailbox's credentials");
  const email = `${mailbox.local_part}@${mailbox.domain}`;
  const status = statusOf(mailbox.status);
  if (status === 'pending')
    throw new DomainError(
      'mailbox_pending',
      sentence`${email} is not created at the provider yet, so it has no password to reset; its domain's build makes one (${operation('get_domain_setup', { domain: mailbox.domain })} shows the build state).`,
    );
  const password = await replacePassword(ctx, mailbox.id, email);
  const eventId = await recordEvent(ctx.services.db, accountId, 'mailbox.password_reset', {
    domain: mailbox.domain,
    order_id: mailbox.order_id,
    email,
    message: `The password of ${email} was reset; the old one no longer works. Update it in your sending tool.`,
  });
  if (eventId) await ctx.services.jobs?.eventRecorded(eventId);
  return credentialsOf(ctx, { email, firstName: mailbox.first_name, lastName: mailbox.last_name, status }, password);
}

/** The mailbox's password opened from its sealed copy; an active mailbox without one gets one now; a pending one has none yet. */
export async function passwordOf(
  ctx: Context,
  m: { readonly id: number; readonly password_sealed: string | null },
  email: string,
  status: MailboxStatus,
): Promise<string | null> {
  if (m.password_sealed) return decryptSecret(ctx.services.secretsKey, m.password_sealed, mailboxSealPurpose(m.id));
  return status === 'active' ? replacePassword(ctx, m.id, email) : null;
}

export function statusOf(raw: string): MailboxStatus {
  return isMailboxStatus(raw) ? raw : 'pending';
}

/** A new password, set at the provider first (a refusal there leaves the stored one as it was), then sealed. */
async function replacePassword(ctx: Context, mailboxId: number, email: string): Promise<string> {
  const password = generateMailboxPassword();
  const set = await provider(ctx).setPassword(email, password);
  if (!set.ok)
    throw new DomainError('provider_refused', `The mail provider refused the new password of ${email}: ${set.reason} Nothing was changed; try again later.`);
  await setMailboxPassword(ctx.services.db, mailboxId, encryptSecret(ctx.services.secretsKey, password, mailboxSealPurpose(mailboxId)));
  return password;
}

function credentialsOf(ctx: Context, mailbox: MailboxListing, password: string | null): MailboxCredentials {
  const { connection } = provider(ctx);
  return { ...mailbox, username: mailbox.email, password, ...connection };
}
