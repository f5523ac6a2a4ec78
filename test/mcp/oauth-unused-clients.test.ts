import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteUnusedOAuthClients, upsertOAuthRecord, type OAuthRecordRow } from '../../db/oauth-records.js';
import type { OpenedDatabase } from '../../db/open-database.js';
import { openMigratedTestDatabase } from '../support/test-database.js';

// Registration is open to anyone (RFC 7591), so the sweep deletes clients registered over a day ago
// that no grant, code or token names; a client in use stays, however old.
let database: OpenedDatabase;
beforeAll(async () => {
  database = await openMigratedTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const record = (model: string, id: string, clientId: string | null): OAuthRecordRow => ({
  model,
  id,
  payload: '{}',
  grant_id: null,
  uid: null,
  user_code: null,
  client_id: clientId,
  user_id: null,
  expires_at: null,
});

it('deletes old clients nothing uses, and keeps old ones in use and new ones', async () => {
  const db = database.db;
  for (const id of ['old-unused', 'old-granted', 'old-with-token', 'new-unused']) await upsertOAuthRecord(db, record('Client', id, null));
  await upsertOAuthRecord(db, record('Grant', 'grant-1', 'old-granted'));
  await upsertOAuthRecord(db, record('RefreshToken', 'token-1', 'old-with-token'));
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
  // created_at is the database's own; a test moves it back by hand.
  await database.raw.query({
    text: `UPDATE oauth_records SET created_at = $1 WHERE id IN ('old-unused', 'old-granted', 'old-with-token')`,
    values: [twoDaysAgo],
  });

  const deleted = await deleteUnusedOAuthClients(db, new Date(Date.now() - 86_400_000));
  expect(deleted).toBe(1);
  const clients = await db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').orderBy('id').execute();
  expect(clients.map((c) => c.id)).toEqual(['new-unused', 'old-granted', 'old-with-token']);
  // The grant and token themselves are untouched.
  const others = await db.selectFrom('oauth_records').select('id').where('model', '<>', 'Client').orderBy('id').execute();
  expect(others.map((r) => r.id)).toEqual(['grant-1', 'token-1']);
});
