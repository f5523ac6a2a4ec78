import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { provided } from './provided.js';
import { migrateToLatest } from '../../db/migrate.js';
import { openDatabase, type OpenedDatabase } from '../../db/open-database.js';
import { borrowPglite } from './pglite-pool.js';

/**
 * Where a test's service keeps its data. Without DATABASE_URL: in-memory PGlite, lent by the worker's
 * pool (pglite-pool.ts), which opens them from the migrated template pglite-template.ts dumps once per
 * run and empties each one handed back. With it: a new PostgreSQL database copied from the run's
 * migrated template (postgres-template.ts) for this test file and dropped afterwards. Either way,
 * suites never share rows.
 */
export interface TestDatabase {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /**
   * PGlite only: a migrated in-memory database lent by this worker's pool (test/support/pglite-pool.ts),
   * to pass to openDatabase or startService; each call lends another, and drop() hands back any still
   * open. On PostgreSQL: undefined.
   */
  pglite(): Promise<PGlite | undefined>;
  drop(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.DATABASE_URL);

/**
 * PGlite only: a new on-disk data folder (DATA_DIR) that already holds the run's migrated template,
 * unpacked from the same tar the in-memory databases load. A process opening it finds a database
 * and resumes it, instead of running initdb and every migration (about 3 s of CPU). For tests whose
 * subject is not the first start on an empty folder (test/auth/demo-user-banner.test.ts keeps that).
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('tar', ['-xf', provided('pgliteTemplate'), '-C', dir]);
  return dir;
}

/** `empty`: PostgreSQL only, a database with no migrations applied, for tests whose subject is migrating. */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const lent: PGlite[] = [];
    return {
      databaseUrl: undefined,
      dataDir: 'memory',
      async pglite() {
        const database = await borrowPglite();
        lent.push(database);
        return database;
      },
      drop: async () => {
        await Promise.all(lent.map((database) => database.close()));
      },
    };
  }
  const name = `svc_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the run's migrated template (postgres-template.ts), so the service finds every migration applied.
  const template = options.empty ? null : provided('postgresTemplate');
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir: 'memory',
    pglite: async () => undefined,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A migrated database of the test file's own, opened: what a test of one module's SQL needs. Its
 * close() also drops it (PostgreSQL; a PGlite in memory just goes).
 */
export async function openMigratedTestDatabase(): Promise<OpenedDatabase> {
  const testDb = await createTestDatabase();
  const database = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, pglite: await testDb.pglite() });
  await migrateToLatest(database.db);
  return {
    ...database,
    async close() {
      await database.close();
      await testDb.drop();
    },
  };
}
