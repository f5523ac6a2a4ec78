import { insertChangeRequest, insertRequestReply } from '../../db/change-requests.js';
import { findOrderDomainByName, setOrderDomainsForwardTo } from '../../db/domains.js';
import { DomainError } from '../domain-error.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';
import { normalizeDomain } from '../checks/normalize-domain.js';
import type { ChangeRequestView } from '../account/list-requests.js';
import { findOwnedOrder } from './find-owned.js';
import { isRequestKind, unknownRequestKindError } from './request-kinds.js';
import type { ChangeRequestStatus } from '../../db/status-values.js';

export interface RaiseRequestInput {
  readonly subscriptionId: string;
  readonly kind: string;
  readonly summary: string;
  readonly forwardTo?: string | null;
}

export interface RaisedRequest extends ChangeRequestView {
  /** For `forwarding`: how many domains now forward to `forward_to`; 0 for other kinds. */
  readonly domainsRepointed: number;
}

const SUMMARY_MAX = 2000;

/**
 * Raises a change request. `forwarding` repoints every domain of the order in the same transaction
 * and is recorded as done with the service's reply; other kinds stay open until a person answers.
 */
export async function raiseRequest(input: RaiseRequestInput, ctx: Context): Promise<RaisedRequest> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const kind = input.kind.trim().toLowerCase();
  if (!isRequestKind(kind)) {
    throw unknownRequestKindError(input.kind);
  }
  const summary = input.summary.trim();
  if (summary === '') throw new DomainError('summary_empty', 'Say what you want changed in "summary" (one or two sentences).');
  if (summary.length > SUMMARY_MAX)
    throw new DomainError('summary_too_long', `"summary" is at most ${SUMMARY_MAX} characters; this one has ${summary.length}.`);
  let forwardTo: string | null = null;
  if (kind === 'forwarding') {
    if (input.forwardTo === undefined || input.forwardTo === null || input.forwardTo.trim() === '') {
      throw new DomainError(
        'forward_to_missing',
        'A forwarding request needs "forward_to": the domain every domain of the order should forward to, such as example.com.',
      );
    }
    forwardTo = normalizeDomain(input.forwardTo, 'forward_to').domain;
  } else if (input.forwardTo !== undefined && input.forwardTo !== null) {
    throw new DomainError('forward_to_not_used', `"forward_to" belongs to kind "forwarding" only; remove it from a "${kind}" request or change the kind.`);
  }

  const order = await findOwnedOrder(db, accountId, input.subscriptionId);
  if (kind === 'forwarding') {
    const own = await findOrderDomainByName(db, order.id, forwardTo!);
    if (own)
      throw new DomainError(
        'forward_to_loop',
        `"forward_to" is ${forwardTo}, a domain of this order: it would forward to itself. Give the site the domains should point at.`,
      );
  }

  return db.transaction().execute(async (trx) => {
    let repointed = 0;
    let status: ChangeRequestStatus = 'open';
    let reply: string;
    if (kind === 'forwarding') {
      repointed = await setOrderDomainsForwardTo(trx, accountId, order.id, forwardTo);
      if (repointed === 0) throw new DomainError('order_has_no_domains', 'This order has no domains to repoint.');
      status = 'done';
      reply = `Done: ${repointed} domain${repointed === 1 ? '' : 's'} of this order now forward${repointed === 1 ? 's' : ''} to ${forwardTo}.`;
    } else {
      reply = 'Received: a person on our team will answer here, usually within one business day.';
    }
    const row = await insertChangeRequest(trx, { account_id: accountId, order_id: order.id, kind, summary, forward_to: forwardTo, status });
    const replyRow = await insertRequestReply(trx, { request_id: row.id, author: 'service', body: reply });
    return {
      requestId: row.id,
      subscriptionId: order.subscription_id,
      kind,
      summary,
      forwardTo,
      status,
      createdAt: row.created_at,
      replies: [{ author: replyRow.author, body: replyRow.body, createdAt: replyRow.created_at }],
      domainsRepointed: repointed,
    };
  });
}
