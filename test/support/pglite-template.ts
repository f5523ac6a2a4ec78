import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import { madeOncePerRun } from './made-once-per-run.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite data folder (a tar from dumpDataDir) every in-memory test database starts from. */
    pgliteTemplate: string;
  }
}

/**
 * vitest globalSetup: makes one empty PGlite cluster, runs every migration on it and dumps it to a
 * tar once per run. A new PGlite costs its initdb (about 3 s of CPU); a copy loaded from this dump
 * costs under 1 s, so each in-memory test database starts from it (test/support/test-database.ts).
 * The dump holds nothing but the schema: each test file still gets its own database, as before.
 * It is smaller than a fresh data folder (no template databases, 1 MB WAL segments), see makeTemplate.
 */
export default async function pgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const template = await madeOncePerRun('pglite-template', makeTemplate, (path) => rmSync(dirname(path), { recursive: true, force: true }));
  project.provide('pgliteTemplate', template.made);
  return template.release;
}

async function makeTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pglite-template-'));
  const path = join(dir, 'migrated.tar');
  // 1 MB WAL segments instead of 16 MB: every test database loads the whole tar, WAL included.
  const client = new PGlite({ initDbStartParams: ['--wal-segsize=1'] });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  try {
    await migrateToLatest(db);
    // The service never creates a database, so the two template databases initdb makes (7 MB of
    // catalogs each) are dead weight in every copy. Then a checkpoint, so a copy starts with no WAL
    // to replay. The dump goes from 42 MB to 16 MB, and a test database from about 470 to 250 ms of
    // CPU to open (measured, docs/testing.md).
    await client.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
    await client.exec('DROP DATABASE template0');
    await client.exec('DROP DATABASE template1');
    await client.exec('CHECKPOINT');
    const dump = await client.dumpDataDir('none');
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
  return path;
}
