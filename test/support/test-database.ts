import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Where a test's service keeps its data. Without DATABASE_URL: in-memory PGlite. With it: a new,
 * empty PostgreSQL database made for this test file and dropped afterwards, so suites never share rows.
 */
export interface TestDatabase {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  drop(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.DATABASE_URL);

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return { databaseUrl: undefined, dataDir: 'memory', drop: async () => {} };
  const name = `svc_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir: 'memory',
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
