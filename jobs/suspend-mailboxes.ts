import { findActiveMailboxesOfOrder, findCancelledOrdersWithActiveMailboxes, moveMailboxStatus } from '../db/mailboxes.js';
import { findOrderToSuspend } from '../db/orders.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import { REINSTATE_GRACE_DAYS } from '../resolvers/orders/reinstatement-checks.js';
import type { JobEnvironment, TaskFunction } from './job-types.js';

/**
 * A cancelled order's mailboxes are suspended at the provider (the sandbox marks them, Google's
 * users.update {suspended: true}), so nobody keeps sending from inboxes no longer paid for. Queued
 * when a Stripe webhook cancels the order, and by the sweep for any cancelled order still holding
 * active mailboxes. Each mailbox the provider suspended moves active → suspended (a conditional
 * update, so a retried or doubled job moves it once), and each domain's moves commit with one
 * mailbox.suspended event naming them. A mailbox the provider refused stays active and the job
 * fails with the provider's reasons, so it is tried again (and `admin jobs` shows the error).
 * The mailboxes, their passwords and the domain's records are kept: nothing is deleted, and
 * reinstating the order within its grace period takes them up again (jobs/reactivate-mailboxes.ts).
 */
export const suspendMailboxes: TaskFunction = async (payload: { orderId: number }, env) => {
  const { db, adapter } = env;
  const order = await findOrderToSuspend(db, payload.orderId);
  if (!order || order.status !== 'cancelled') return;
  const byDomain = new Map<string, { id: number; email: string }[]>();
  const refused: string[] = [];
  for (const m of await findActiveMailboxesOfOrder(db, order.id)) {
    const email = `${m.local_part}@${m.domain}`;
    const done = await adapter.suspend(email);
    if (!done.ok) {
      refused.push(done.reason);
      continue;
    }
    byDomain.set(m.domain, [...(byDomain.get(m.domain) ?? []), { id: m.id, email }]);
  }
  const now = new Date();
  for (const [domain, mailboxes] of byDomain) {
    const eventId = await db.transaction().execute(async (trx) => {
      const moved: string[] = [];
      for (const m of mailboxes) if (await moveMailboxStatus(trx, m.id, 'active', 'suspended', now)) moved.push(m.email);
      if (moved.length === 0) return null;
      return recordEvent(trx, order.account_id, 'mailbox.suspended', {
        domain,
        order_id: order.id,
        subscription_id: order.subscription_id,
        mailboxes: moved,
        status: 'suspended',
        cause: 'order_cancelled',
        message: `The order ${order.subscription_id} is cancelled, so its mailboxes on ${domain} (${moved.join(', ')}) are suspended at the mail provider: they no longer send or receive. Nothing was deleted: reinstate the order within ${REINSTATE_GRACE_DAYS} days of its cancellation to take them up again, with the same passwords.`,
      });
    });
    if (eventId) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
  }
  if (refused.length > 0) throw new Error(`${refused.length} mailbox(es) of order ${order.id} could not be suspended: ${refused.join(' ')}`);
};

/** The sweep's part: cancelled orders still holding active mailboxes, each queued under one key. */
export async function queueDueSuspensions(env: JobEnvironment): Promise<number> {
  const due = await findCancelledOrdersWithActiveMailboxes(env.db, 1000);
  for (const o of due) await env.enqueue('suspend_mailboxes', { orderId: o.id }, { key: `suspend_mailboxes:${o.id}` });
  return due.length;
}
