import { findDomainsHeldByOthers } from '../../db/domain-reservations.js';
import { listOrderDomainNames } from '../../db/domains.js';
import { findOrderToReinstate } from '../../db/orders.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DomainError, operation, sentence } from '../domain-error.js';

/**
 * How long after its cancellation a customer may reinstate an order (counted from the processor's
 * cancellation time, orders.cancelled_at). Its mailboxes, passwords and domains are kept meanwhile.
 */
export const REINSTATE_GRACE_DAYS = 30;
const GRACE_MS = REINSTATE_GRACE_DAYS * 86_400_000;

export type OrderToReinstate = NonNullable<Awaited<ReturnType<typeof findOrderToReinstate>>>;

/** The last moment the order may be reinstated, or null when its cancellation time is not known. */
export function reinstatableUntil(cancelledAt: Date | string | null): Date | null {
  return cancelledAt === null ? null : new Date(new Date(cancelledAt).getTime() + GRACE_MS);
}

/**
 * The caller's cancelled order, within its grace period, whose domains no other placement holds; or
 * a refusal saying what to do. Another account's order is answered as an unknown one.
 */
export async function findReinstatableOrder(db: Kysely<Database>, accountId: number, orderId: number, now: Date): Promise<OrderToReinstate> {
  const order = await findOrderToReinstate(db, accountId, orderId);
  if (!order)
    throw new DomainError(
      'order_not_found',
      sentence`There is no order ${orderId} on this account; ${operation('list_orders')} lists yours with their order_id.`,
    );
  if (order.status !== 'cancelled')
    throw new DomainError(
      'order_not_cancelled',
      `The order ${order.reference} is ${order.status}, not cancelled, so there is nothing to reinstate and nothing was charged. Only a cancelled order is reinstated.`,
      { order_status: order.status },
    );
  const until = reinstatableUntil(order.cancelled_at);
  if (until === null)
    throw new DomainError(
      'reinstatement_window_closed',
      `The order ${order.reference} was cancelled before this service recorded when orders are cancelled, so its ${REINSTATE_GRACE_DAYS}-day grace period cannot be counted; nothing was charged. Write to us (a change request) to have it taken up again.`,
    );
  if (now > until)
    throw new DomainError(
      'reinstatement_window_closed',
      `The order ${order.reference} was cancelled on ${new Date(order.cancelled_at!).toISOString().slice(0, 10)}, more than ${REINSTATE_GRACE_DAYS} days ago (its grace period ended ${until.toISOString()}), so it can no longer be reinstated; nothing was charged. Place a new order instead, or write to us (a change request).`,
      { reinstatable_until: until.toISOString() },
    );
  const held = await findDomainsHeldByOthers(db, await listOrderDomainNames(db, order.id), accountId, now);
  if (held.length > 0)
    throw new DomainError(
      'domain_held_elsewhere',
      `${held.map((d) => d.domain).join(', ')} ${held.length === 1 ? 'is' : 'are'} being ordered by another account right now, so the order ${order.reference} cannot be reinstated with ${held.length === 1 ? 'it' : 'them'}; nothing was charged. Check that the domains are yours, and write to us (a change request).`,
      { domains: held.map((d) => d.domain) },
    );
  return order;
}
