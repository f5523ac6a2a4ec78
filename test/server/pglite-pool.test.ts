import { describe, expect, it } from 'vitest';
import { borrowPglite, pgliteOpened } from '../support/pglite-pool.js';
import { usingPostgres } from '../support/test-database.js';

/**
 * The tests' pool of in-memory PGlite databases (test/support/pglite-pool.ts): a database handed
 * back and lent again must read as a new copy of the template, or tests would see each other's rows.
 */
const reason = usingPostgres ? ' (skipped: the PostgreSQL pass copies a database per test and uses no pool)' : '';

describe.skipIf(usingPostgres)(`the tests' PGlite pool${reason}`, () => {
  it('lends a database emptied of the last borrower’s rows, with its identities restarted and its session reset', async () => {
    const first = await borrowPglite();
    await first.exec(`insert into accounts (name) values ('one'), ('two')`);
    await first.exec(`create temporary table scratch (id int)`);
    await first.exec(`set statement_timeout = 1234`);
    await first.exec('begin');
    await first.exec(`insert into accounts (name) values ('in a transaction left open')`);
    await first.close();

    const opened = pgliteOpened();
    const second = await borrowPglite();
    try {
      expect(pgliteOpened(), 'the database handed back is lent again, not a new one opened').toBe(opened);
      expect((await second.query('select count(*)::int as n from accounts')).rows).toEqual([{ n: 0 }]);
      expect((await second.query(`insert into accounts (name) values ('again') returning id`)).rows).toEqual([{ id: 1 }]);
      expect((await second.query(`select to_regclass('pg_temp.scratch') as t`)).rows).toEqual([{ t: null }]);
      expect((await second.query(`select current_setting('statement_timeout') as s`)).rows).toEqual([{ s: '0' }]);
    } finally {
      await second.close();
    }
  });

  it('closes rather than lends again a database whose schema a test changed', async () => {
    const changed = await borrowPglite();
    await changed.exec('create table left_behind (id int)');
    await changed.close();
    const next = await borrowPglite();
    try {
      expect((await next.query(`select to_regclass('public.left_behind') as t`)).rows).toEqual([{ t: null }]);
    } finally {
      await next.close();
    }
  });

  it('closes rather than lends again a database given a schema or a database setting of its own', async () => {
    for (const change of ['create schema elsewhere', 'alter database template1 set work_mem = 1234']) {
      const changed = await borrowPglite();
      const database = (await changed.query<{ name: string }>('select current_database() as name')).rows[0]!.name;
      await changed.exec(change.replace('template1', database));
      await changed.close();
      const next = await borrowPglite();
      try {
        const left = await next.query<{ schema: string | null; settings: number }>(
          `select to_regnamespace('elsewhere')::text as schema, (select count(*)::int from pg_db_role_setting) as settings`,
        );
        expect(left.rows, `after "${change}"`).toEqual([{ schema: null, settings: 0 }]);
      } finally {
        await next.close();
      }
    }
  });

  it('a handle stops working once handed back, so a stopped service cannot write into the next test’s database', async () => {
    const database = await borrowPglite();
    await database.close();
    expect(database.closed).toBe(true);
    expect(() => database.query('select 1')).toThrow('PGlite is closed');
    // A second close is harmless, as on a PGlite.
    await database.close();
  });
});
