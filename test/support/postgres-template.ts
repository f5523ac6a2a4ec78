import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { madeOncePerRun } from './made-once-per-run.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** With DATABASE_URL: a migrated PostgreSQL database every test database is created from (TEMPLATE). */
    postgresTemplate: string | null;
  }
}

/**
 * vitest globalSetup, PostgreSQL's counterpart of pglite-template.ts: with DATABASE_URL, one database
 * is made and migrated once per run, and each test database is created as a copy of it
 * (`CREATE DATABASE ... TEMPLATE`, test/support/test-database.ts) instead of running every migration
 * again in each service the tests start (about 0.7 s each). Without DATABASE_URL it does nothing.
 */
export default async function postgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    project.provide('postgresTemplate', null);
    return async () => {};
  }
  const template = await madeOncePerRun(
    'postgres-template',
    () => makeTemplate(adminUrl),
    (name) => onAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  );
  project.provide('postgresTemplate', template.made);
  return template.release;
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `svc_template_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await onAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
  try {
    await migrateToLatest(db);
  } finally {
    // A database is copied only while nobody is connected to it.
    await db.destroy();
  }
  return name;
}

async function onAdmin(adminUrl: string, use: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}
