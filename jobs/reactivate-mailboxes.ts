import { findCancellationSuspendedMailboxesOfOrder, findReinstatedOrdersWithSuspendedMailboxes, moveMailboxStatus } from '../db/mailboxes.js';
import { findOrderToReactivate } from '../db/orders.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import type { JobEnvironment, TaskFunction } from './job-types.js';

/**
 * A reinstated order's mailboxes are taken up again at the provider (the sandbox unmarks them,
 * Google's users.update {suspended: false}), the mirror of jobs/suspend-mailboxes.ts. Queued when the
 * customer reinstates the order, and by the sweep for any reinstated order still holding mailboxes
 * its cancellation suspended (a suspension that finished after the reinstatement is undone too).
 * Only mailboxes the cancellation suspended are asked for: one the reconnection monitor saw
 * suspended by the provider itself (an open disconnection) is left to the provider. Each mailbox the
 * provider reactivated moves suspended → active (conditional: a retried or doubled job moves it
 * once), and each domain's moves commit with one mailbox.reactivated event. A refusal leaves the
 * mailbox suspended and fails the job with the provider's reasons, so it is tried again.
 */
export const reactivateMailboxes: TaskFunction = async (payload: { orderId: number }, env) => {
  const { db, adapter } = env;
  const order = await findOrderToReactivate(db, payload.orderId);
  if (!order || (order.status !== 'active' && order.status !== 'trialing')) return;
  const byDomain = new Map<string, { id: number; email: string }[]>();
  const refused: string[] = [];
  for (const m of await findCancellationSuspendedMailboxesOfOrder(db, order.id)) {
    const email = `${m.local_part}@${m.domain}`;
    const done = await adapter.reactivate(email);
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
      for (const m of mailboxes) if (await moveMailboxStatus(trx, m.id, 'suspended', 'active', now)) moved.push(m.email);
      if (moved.length === 0) return null;
      return recordEvent(trx, order.account_id, 'mailbox.reactivated', {
        domain,
        order_id: order.id,
        subscription_id: order.subscription_id,
        mailboxes: moved,
        status: 'active',
        cause: 'order_reinstated',
        message: `The order ${order.reference} is reinstated, so its mailboxes on ${domain} (${moved.join(', ')}) are active again at the mail provider, with the same passwords: they send and receive again. Reconnect them in your sending tool if it does not resume by itself.`,
      });
    });
    if (eventId) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
  }
  if (refused.length > 0) throw new Error(`${refused.length} mailbox(es) of order ${order.id} could not be reactivated: ${refused.join(' ')}`);
};

/** The sweep's part: reinstated orders still holding mailboxes their cancellation suspended, each queued under one key. */
export async function queueDueReactivations(env: JobEnvironment): Promise<number> {
  const due = await findReinstatedOrdersWithSuspendedMailboxes(env.db, 1000);
  for (const o of due) await env.enqueue('reactivate_mailboxes', { orderId: o.id }, { key: `reactivate_mailboxes:${o.id}` });
  return due.length;
}
