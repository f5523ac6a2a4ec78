import { setOrderMonitors, setOrderSequencer } from '../../db/orders.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { findOwnedOrder } from './find-owned.js';
import { isSequencer, unknownSequencerError } from './sequencers.js';

export interface OrderSettings {
  readonly subscriptionId: string;
  readonly sequencer: string | null;
  readonly monitorReconnection: boolean;
  readonly monitorDeliverability: boolean;
}

/** Sets the sending tool the order's inboxes connect to; `none` clears it. */
export async function setSequencer(subscriptionId: string, input: { readonly sequencer: string }, ctx: Context): Promise<OrderSettings> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const order = await findOwnedOrder(db, accountId, subscriptionId);
  const value = input.sequencer.trim().toLowerCase();
  if (!isSequencer(value)) {
    throw unknownSequencerError(input.sequencer);
  }
  const sequencer = value === 'none' ? null : value;
  await setOrderSequencer(db, order.id, sequencer);
  return {
    subscriptionId: order.subscription_id,
    sequencer,
    monitorReconnection: order.monitor_reconnection,
    monitorDeliverability: order.monitor_deliverability,
  };
}

/**
 * Flips one or both monitor switches; a switch not sent is left as it is. Nothing sent at all is a
 * refusal (400); null is not a boolean, so it is a field of the wrong shape (422, SPEC 7).
 */
export async function setMonitors(
  subscriptionId: string,
  input: { readonly reconnection?: boolean | null; readonly deliverability?: boolean | null },
  ctx: Context,
): Promise<OrderSettings> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const order = await findOwnedOrder(db, accountId, subscriptionId);
  for (const field of ['reconnection', 'deliverability'] as const) {
    if (input[field] === null)
      throw new DomainError('invalid_field', `The field "${field}" must be true or false, not null; leave it out to keep the switch as it is.`);
  }
  const { reconnection, deliverability } = input;
  if (reconnection === undefined && deliverability === undefined) {
    throw new DomainError('nothing_to_change', 'Send at least one switch: {"reconnection": true|false} and/or {"deliverability": true|false}.');
  }
  const set: { monitor_reconnection?: boolean; monitor_deliverability?: boolean } = {};
  if (typeof reconnection === 'boolean') set.monitor_reconnection = reconnection;
  if (typeof deliverability === 'boolean') set.monitor_deliverability = deliverability;
  const row = await setOrderMonitors(db, order.id, set);
  if (typeof deliverability === 'boolean') await ctx.services.jobs?.monitoringSwitched(order.id, deliverability);
  return {
    subscriptionId: row.subscription_id,
    sequencer: row.sequencer,
    monitorReconnection: row.monitor_reconnection,
    monitorDeliverability: row.monitor_deliverability,
  };
}
