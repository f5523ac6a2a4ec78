import type { ChangeRequestStatus } from '../../db/status-values.js';
import type { Context } from '../context.js';
import { requireAccountId } from '../auth/require-account.js';

export interface RequestReplyView {
  readonly author: string;
  readonly body: string;
  readonly createdAt: Date;
}

export interface ChangeRequestView {
  readonly requestId: number;
  readonly subscriptionId: string;
  readonly kind: string;
  readonly summary: string;
  readonly forwardTo: string | null;
  readonly status: ChangeRequestStatus;
  readonly createdAt: Date;
  readonly replies: readonly RequestReplyView[];
}

/** Change requests, newest first, each with the service's replies (two queries). */
export async function listRequests(ctx: Context): Promise<readonly ChangeRequestView[]> {
  const accountId = await requireAccountId(ctx);
  const db = ctx.services.db;
  const [requests, replies] = await Promise.all([
    db
      .selectFrom('change_requests')
      .innerJoin('orders', 'orders.id', 'change_requests.order_id')
      .select([
        'change_requests.id',
        'orders.subscription_id',
        'change_requests.kind',
        'change_requests.summary',
        'change_requests.forward_to',
        'change_requests.status',
        'change_requests.created_at',
      ])
      .where('change_requests.account_id', '=', accountId)
      .orderBy('change_requests.created_at', 'desc')
      .orderBy('change_requests.id', 'desc')
      .execute(),
    db
      .selectFrom('request_replies')
      .innerJoin('change_requests', 'change_requests.id', 'request_replies.request_id')
      .select(['request_replies.request_id', 'request_replies.author', 'request_replies.body', 'request_replies.created_at'])
      .where('change_requests.account_id', '=', accountId)
      .orderBy('request_replies.created_at')
      .orderBy('request_replies.id')
      .execute(),
  ]);
  const byRequest = new Map<number, RequestReplyView[]>();
  for (const r of replies) {
    const list = byRequest.get(r.request_id) ?? [];
    list.push({ author: r.author, body: r.body, createdAt: r.created_at });
    byRequest.set(r.request_id, list);
  }
  return requests.map((r) => ({
    requestId: r.id,
    subscriptionId: r.subscription_id,
    kind: r.kind,
    summary: r.summary,
    forwardTo: r.forward_to,
    status: r.status,
    createdAt: r.created_at,
    replies: byRequest.get(r.id) ?? [],
  }));
}
