import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function insertChangeRequest(
  db: Kysely<Database>,
  request: { account_id: number; order_id: number; kind: string; summary: string; forward_to: string | null; status: string },
): Promise<{ id: number; created_at: Date }> {
  return db.insertInto('change_requests').values(request).returning(['id', 'created_at']).executeTakeFirstOrThrow();
}

export function insertRequestReply(
  db: Kysely<Database>,
  reply: { request_id: number; author: string; body: string },
): Promise<{ author: string; body: string; created_at: Date }> {
  return db.insertInto('request_replies').values(reply).returning(['author', 'body', 'created_at']).executeTakeFirstOrThrow();
}
