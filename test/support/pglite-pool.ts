import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { provided } from './provided.js';
import { IN_MEMORY_START_PARAMS } from '../../db/open-database.js';

/**
 * The in-memory PGlite databases of one test worker process, lent to a test and taken back when it
 * closes them, so that the next test file does not open a new one.
 *
 * Why: opening one from the run's migrated template costs about 0.5 s of CPU. PGlite unpacks its own
 * 700 share files and the template's 650 into a new in-memory file system, then starts PostgreSQL;
 * 120 opens in a run came to 75 s of the suite's CPU. Emptying a database that comes back takes
 * about 30-60 ms.
 *
 * A database handed back is emptied: an open transaction is rolled back, DISCARD ALL drops the
 * session's temporary tables and settings, and TRUNCATE ... RESTART IDENTITY empties every table that
 * has rows or has used its sequence (the migrations' own two tables excepted: the template fills
 * them). Then its catalog is compared with the template's (tables, columns, constraints, triggers,
 * functions, applied migrations, schemas, extensions, database-level settings). One that differs, because a test changed the schema, or that fails
 * to empty, is closed rather than lent again. A borrower's handle stops working when it closes it, so
 * a stopped service's late query fails as it would on a closed database, instead of reaching the
 * next test's rows.
 */

/** How many emptied databases a worker keeps for the next borrower; more are closed. */
const KEEP_IDLE = 2;

/** Tables the template itself fills, which emptying leaves alone. */
const TEMPLATE_TABLES = ['kysely_migration', 'kysely_migration_lock'];

const CATALOG_FINGERPRINT = `select md5(string_agg(x, ',' order by x)) as fingerprint from (
  select 'c:' || c.relname || ':' || c.relkind::text as x from pg_class c where c.relnamespace = 'public'::regnamespace
  union all select 'a:' || c.relname || '.' || a.attname || ':' || a.atttypid::text || ':' || a.attnotnull::text
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped
  union all select 'k:' || conname || ':' || pg_get_constraintdef(oid) from pg_constraint where connamespace = 'public'::regnamespace
  union all select 't:' || t.tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = 'public'::regnamespace
  union all select 'p:' || proname || ':' || md5(prosrc) from pg_proc where pronamespace = 'public'::regnamespace
  union all select 'm:' || name from kysely_migration
  union all select 'n:' || nspname from pg_namespace where nspname not like 'pg_temp_%' and nspname not like 'pg_toast_temp_%'
  union all select 'e:' || extname || ':' || extversion from pg_extension
  union all select 's:' || array_to_string(setconfig, ';') from pg_db_role_setting
) catalog`;

interface Pool {
  readonly idle: PGlite[];
  /** Databases opened from the template so far in this worker. */
  opened: number;
  template?: Blob;
  /** The template's catalog fingerprint, read from the first database opened. */
  fingerprint?: Promise<string>;
  /** Every data table: the emptying probes these for rows. */
  tables?: Promise<readonly string[]>;
}

// On globalThis: test/support/fresh-modules.ts evaluates this module anew for each file, and the
// pool is what outlives a file.
function pool(): Pool {
  const shared = globalThis as { svcPglitePool?: Pool };
  shared.svcPglitePool ??= { idle: [], opened: 0 };
  return shared.svcPglitePool;
}

/** An emptied, migrated in-memory PGlite of this worker's pool, or a new one from the template. */
export async function borrowPglite(): Promise<PGlite> {
  const state = pool();
  const database = state.idle.pop() ?? (await openFromTemplate(state));
  return lend(database, state);
}

/** How many databases this worker has opened from the template (the pool's own test reads it). */
export function pgliteOpened(): number {
  return pool().opened;
}

async function openFromTemplate(state: Pool): Promise<PGlite> {
  state.template ??= new Blob([readFileSync(provided('pgliteTemplate'))]);
  const database = new PGlite({ loadDataDir: state.template, startParams: [...IN_MEMORY_START_PARAMS] });
  await database.waitReady;
  state.opened += 1;
  state.fingerprint ??= database.query<{ fingerprint: string }>(CATALOG_FINGERPRINT).then((r) => r.rows[0]!.fingerprint);
  state.tables ??= database
    .query<{ name: string }>(`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')`)
    .then((r) => r.rows.map((row) => row.name).filter((name) => !TEMPLATE_TABLES.includes(name)));
  await Promise.all([state.fingerprint, state.tables]);
  return database;
}

/**
 * The borrower's handle: the database itself until close(), which hands it back; after that every
 * method refuses, as a closed PGlite's would. Methods are bound to the database (PGlite keeps
 * private fields, which a proxy as `this` could not reach).
 */
function lend(database: PGlite, state: Pool): PGlite {
  let returned = false;
  return new Proxy(database, {
    get(target, property) {
      if (property === 'close')
        return async () => {
          if (returned) return;
          returned = true;
          await takeBack(target, state);
        };
      if (property === 'closed') return returned || target.closed;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (returned) throw new Error('PGlite is closed');
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function takeBack(database: PGlite, state: Pool): Promise<void> {
  try {
    if (state.idle.length >= KEEP_IDLE) throw new Error('enough idle databases');
    await empty(database, state);
    state.idle.push(database);
  } catch {
    await database.close().catch(() => undefined);
  }
}

async function empty(database: PGlite, state: Pool): Promise<void> {
  // A service stopped mid-transaction leaves it open (PGlite has one session); none open is a warning only.
  await database.exec('ROLLBACK');
  await database.exec('DISCARD ALL');
  const tables = await state.tables!;
  const filled = await database.query<{ name: string }>(tables.map((t) => `select '${t}' as name where exists (select 1 from "${t}")`).join(' union all '));
  const counted = await database.query<{ name: string }>(
    `select distinct t.relname as name from pg_sequences s
       join pg_class q on q.relname = s.sequencename and q.relnamespace = 'public'::regnamespace
       join pg_depend d on d.objid = q.oid and d.deptype in ('a', 'i')
       join pg_class t on t.oid = d.refobjid
     where s.schemaname = 'public' and s.last_value is not null`,
  );
  const used = [...new Set([...filled.rows, ...counted.rows].map((r) => r.name))].filter((name) => tables.includes(name));
  if (used.length > 0) await database.exec(`TRUNCATE ${used.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
  const now = await database.query<{ fingerprint: string }>(CATALOG_FINGERPRINT);
  if (now.rows[0]!.fingerprint !== (await state.fingerprint)) throw new Error('the schema changed');
}
