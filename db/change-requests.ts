import type { Kysely } from 'kysely';
import type { Database, NewChangeRequest, NewRequestReply } from './schema.js';

export function insertChangeRequest(db: Kysely<Database>, request: NewChangeRequest): Promise<{ id: number; created_at: Date }> {
  return db.insertInto('change_requests').values(request).returning(['id', 'created_at']).executeTakeFirstOrThrow();
}

export function insertRequestReply(db: Kysely<Database>, reply: NewRequestReply): Promise<{ author: string; body: string; created_at: Date }> {
  return db.insertInto('request_replies').values(reply).returning(['author', 'body', 'created_at']).executeTakeFirstOrThrow();
}

/** The account's change requests, newest first, with their order's subscription id. */
export function listChangeRequests(db: Kysely<Database>, accountId: number) {
  return db
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
    .execute();
}

/** The replies to every change request of the account, oldest first. */
export function listRequestReplies(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('request_replies')
    .innerJoin('change_requests', 'change_requests.id', 'request_replies.request_id')
    .select(['request_replies.request_id', 'request_replies.author', 'request_replies.body', 'request_replies.created_at'])
    .where('change_requests.account_id', '=', accountId)
    .orderBy('request_replies.created_at')
    .orderBy('request_replies.id')
    .execute();
}
