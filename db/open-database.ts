import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './schema.js';
import { openPgliteThread, PgliteThreadDialect, type PgliteThread } from './pglite-over-thread.js';

/** A plain SQL door for libraries that want `query({text, values})` (rate-limiter-flexible). */
export interface RawQuery {
  query(q: { text: string; values?: unknown[] }): Promise<{ rows: any[]; rowCount: number }>;
}

export interface OpenedDatabase {
  readonly db: Kysely<Database>;
  readonly kind: 'pglite' | 'postgres';
  readonly raw: RawQuery;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://... uses pg; unset uses embedded PGlite. */
  readonly databaseUrl?: string | undefined;
  /** PGlite data folder; 'memory' keeps everything in memory (tests). */
  readonly dataDir?: string | undefined;
  readonly poolSize?: number;
  /**
   * Tests: an open, migrated in-memory PGlite to use instead of opening one (test/support/pglite-pool.ts
   * lends them). Closing the database closes it, which for a lent one hands it back to the pool.
   * Unlike the service's own (openPglite: a worker thread), a lent one runs on the calling thread:
   * the pool keeps it across test files and empties it through PGlite's own methods, and a test that
   * fakes Date (test/wire/wire-golden.test.ts) fakes the database's now() with it. A test of the
   * thread path opens a data folder or `memory` (test/server/database-off-loop.test.ts).
   */
  readonly pglite?: PGlite | undefined;
}

export class DatabaseInUseError extends Error {}

export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  if (options.pglite) return overPglite(options.pglite, () => {});
  return openPglite(options.dataDir ?? './data');
}

function openPostgres(url: string, max: number): OpenedDatabase {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 3000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // A client checked out of the pool has no 'error' listener (pg-pool removes its idle one), so a
  // server that dies while Kysely holds the client would crash the process with an unhandled
  // 'error' event. The query in flight still fails (a 503 to the caller) and the pool drops the
  // broken client on release. Shown by test/faults/database-outage.test.ts.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    raw: {
      query: async (q) => {
        const r = await pool.query(q.text, q.values);
        return { rows: r.rows, rowCount: r.rowCount ?? 0 };
      },
    },
    close: () => db.destroy(),
  };
}

/**
 * How an in-memory PGlite starts: PGlite's own parameters, with a 16 MB buffer cache instead of
 * PostgreSQL's 128 MB (the files already live in memory, so a bigger cache only copies them again)
 * and room for 20 backends instead of 100 (PGlite runs one). The lock table keeps its size
 * (max_locks_per_transaction × max_connections: 6,400 locks either way). A start then takes about
 * half the CPU (about 250 ms instead of 450 ms on our 2-core machines) and 112 MB less memory.
 * The tests' pool (test/support/pglite-pool.ts) opens its databases with the same parameters.
 */
export const IN_MEMORY_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'max_connections=20',
  '-c',
  'max_locks_per_transaction=320',
];

/**
 * The service's own embedded database (a data folder, or `memory`): PGlite in a worker thread of its
 * own (db/pglite-over-thread.ts), so its statements run beside the event loop instead of on it. On
 * the main thread a 100-row INSERT of a report, or a dashboard's aggregate, held every other request
 * for as long: /healthz answered 4.9× slower at p99 while a 10 MiB report went in (docs/performance.md,
 * report-stall); in the thread it is the same as on PostgreSQL. The folder's lock and file modes stay
 * here, on the main thread, before the thread opens it and after it closed it.
 */
async function openPglite(dataDir: string): Promise<OpenedDatabase> {
  if (dataDir === 'memory') return overThread(await openPgliteThread({ dataDir: null, startParams: IN_MEMORY_START_PARAMS }), () => {});
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const unlock = holdDataDirLock(dir);
  let thread: PgliteThread;
  try {
    thread = await openPgliteThread({ dataDir: dir });
  } catch (error) {
    unlock();
    throw error;
  }
  ownerOnly(dir);
  return overThread(thread, () => {
    ownerOnly(dir);
    unlock();
  });
}

/**
 * The embedded database's files hold every account's data and the sealed secrets: the folder is made
 * 0700 and every file in it 0600 (PGlite's file system writes them 0644), at each open and close. The
 * folder's mode is what keeps other users out of files PGlite makes in between.
 */
function ownerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    try {
      if (entry.isDirectory()) chmodSync(path, 0o700);
      else if (entry.isFile()) chmodSync(path, 0o600);
    } catch {
      // Gone between the listing and the chmod (PGlite removes temporary files): nothing to protect.
    }
  }
}

/** Kysely and the raw door over the database thread; closing closes it and ends the thread, then calls `release`. */
function overThread(thread: PgliteThread, release: () => void): OpenedDatabase {
  const db = new Kysely<Database>({ dialect: new PgliteThreadDialect(thread) });
  return {
    db,
    kind: 'pglite',
    raw: {
      query: async (q) => {
        const r = await thread.query(q.text, q.values ?? []);
        return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
      },
    },
    close: async () => {
      await db.destroy();
      release();
    },
  };
}

/**
 * Kysely and the raw door over an open PGlite on this thread (the tests' lent databases); closing
 * closes it, then calls `release`.
 */
function overPglite(client: PGlite, release: () => void): OpenedDatabase {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    raw: {
      query: async (q) => {
        const r = await client.query(q.text, q.values ?? []);
        return { rows: r.rows as any[], rowCount: r.affectedRows ?? r.rows.length };
      },
    },
    close: async () => {
      await db.destroy();
      release();
    },
  };
}

/**
 * PGlite is one process's database: two processes writing the same folder would corrupt it. A lock
 * file holding the owner's pid keeps a second process (the server, or an admin command) out with a
 * sentence that says what to do; a lock left by a process that died is taken over.
 */
function holdDataDirLock(dir: string): () => void {
  const lockPath = join(dir, 'service.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (error: any) {
      if (error.code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dir} is in use by process ${owner} (PGlite serves one process). ` +
            `Stop that process first, or run the service on PostgreSQL with DATABASE_URL so both can run together.`,
        );
      }
      unlinkSync(lockPath);
    }
  }
  throw new DatabaseInUseError(`Could not take the lock on ${lockPath}; remove it if no service is running.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: any) {
    return error.code === 'EPERM';
  }
}
