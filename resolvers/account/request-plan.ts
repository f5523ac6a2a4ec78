import { findAccountName } from '../../db/accounts.js';
import { listPlanSkus } from '../../db/plans.js';
import { findUserEmail, listOwnerEmails } from '../../db/users.js';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface PlanRequestInput {
  readonly message: string;
  /** A plan the customer saw and wants (a non-orderable one of their catalogue), if any. */
  readonly sku?: string | null;
}

export interface PlanRequest {
  readonly requested: true;
  readonly detail: string;
}

const MESSAGE_MAX = 2000;

/**
 * "Ask for a plan": a customer whose catalogue is empty (or holds only plans that cannot be ordered)
 * writes to the operator, who answers by e-mail and puts the account on a plan (`admin
 * add-plan`, or DEFAULT_PLAN_SKUS for everyone). It goes to OPERATOR_EMAIL through the
 * service's mailer (SMTP_URL, else an .eml in the outbox), naming the account and who asked, so the
 * operator can reply to a person.
 */
export async function requestPlan(input: PlanRequestInput, ctx: Context): Promise<PlanRequest> {
  const accountId = await requireAccountId(ctx);
  const message = input.message.trim();
  if (message === '') throw new DomainError('message_empty', 'Say in "message" what you want to order (for example: 20 Google inboxes a month).');
  if (message.length > MESSAGE_MAX)
    throw new DomainError('message_too_long', `"message" is at most ${MESSAGE_MAX} characters; this one has ${message.length}.`);
  const sku = input.sku?.trim() || null;
  if (sku !== null && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(sku))
    throw new DomainError('sku_malformed', '"sku" is a plan\'s sku as the catalogue lists it (such as google-inbox-warmed), or leave it out.');
  await ctx.services.rateLimits.consume('planRequest', `account:${accountId}`);
  const db = ctx.services.db;
  const caller = await ctx.caller();
  const [accountName, person, plans] = await Promise.all([
    findAccountName(db, accountId),
    caller?.userId ? findUserEmail(db, caller.userId) : undefined,
    listPlanSkus(db, accountId),
  ]);
  const mailer = ctx.services.mailer;
  if (!mailer) throw new DomainError('mail_unavailable', 'Asking for a plan is not available on this service right now; try again in a few minutes.');
  const owners = person ? [] : await listOwnerEmails(db, accountId, 3);
  const replyTo = person?.email ?? (owners.map((o) => o.email).join(', ') || 'nobody signs in to this account yet');
  const text = [
    `Account ${accountId} (${accountName}) asks to be put on a plan.`,
    '',
    `Who asked: ${person ? person.email : `an API key; the owners are ${replyTo}`}`,
    `Plan asked for: ${sku ?? 'not named'}`,
    `Plans now: ${plans.length === 0 ? 'none' : plans.map((p) => `${p.sku}${p.orderable ? '' : ' (not orderable)'}`).join(', ')}`,
    '',
    'Their message:',
    message,
    '',
    `To put them on a plan: npm run --silent admin -- add-plan --account ${accountId} --sku SKU [--unit-amount N]`,
    '',
  ].join('\n');
  try {
    await mailer.send({
      to: ctx.services.config.operatorEmail,
      subject: `Plan request from ${accountName} (account ${accountId})`,
      text,
      id: `plan-${randomUUID()}`,
    });
  } catch {
    throw new DomainError('mail_unavailable', 'Your request could not be sent just now; nothing was lost on your side, try again in a few minutes.');
  }
  return {
    requested: true,
    detail: `Sent to our team. We answer by e-mail${person ? ` at ${person.email}` : ''}, usually within one business day, and your catalogue shows the plan once you are on it.`,
  };
}
