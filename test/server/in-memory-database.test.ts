import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../db/open-database.js';

/**
 * DATA_DIR=memory (the tests, and a try-out without a data folder) starts PGlite with a small buffer
 * cache and room for few backends (db/open-database.ts): the settings take effect, and a transaction
 * still holds thousands of locks, as with PostgreSQL's defaults.
 */
let database: OpenedDatabase;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory' });
});
afterAll(async () => {
  await database?.close();
});

it('runs with a 16 MB buffer cache and 20 backends', async () => {
  const setting = async (name: string) => (await database.raw.query({ text: 'SELECT current_setting($1) AS value', values: [name] })).rows[0].value;
  expect(await setting('shared_buffers')).toBe('16MB');
  expect(await setting('max_connections')).toBe('20');
  expect(await setting('max_locks_per_transaction')).toBe('320');
});

it('holds 6,000 locks in one transaction (over what 20 backends at the default 64 locks each would allow)', async () => {
  await database.db.transaction().execute(async (trx) => {
    await sql`DO $$ BEGIN FOR i IN 1..6000 LOOP EXECUTE format('CREATE TEMP TABLE lock_probe_%s (id int)', i); END LOOP; END $$`.execute(trx);
    const held = await sql<{
      count: string;
    }>`SELECT count(*)::text AS count FROM pg_locks WHERE locktype = 'relation' AND mode = 'AccessExclusiveLock'`.execute(trx);
    expect(Number(held.rows[0]!.count)).toBeGreaterThanOrEqual(6000);
  });
});
