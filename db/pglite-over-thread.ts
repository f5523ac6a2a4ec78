import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { log } from '../observability/log.js';

/** How the thread opens its database (its workerData). */
interface PgliteThreadOpen {
  /** The data folder, already made and locked by the main thread; null: in memory. */
  readonly dataDir: string | null;
  readonly startParams?: readonly string[];
}

/** What the main thread asks (pglite-thread.mjs answers), numbered by `id`. */
type PgliteAsk =
  | { readonly op: 'query'; readonly sql: string; readonly params: readonly unknown[] }
  | { readonly op: 'exec'; readonly sql: string }
  | { readonly op: 'close' };
type PgliteRequest = PgliteAsk & { readonly id: number };

/** A database error as data: a structured clone would keep an Error's message and stack only. */
interface PgliteFailure {
  readonly name: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, string | number | boolean>>;
}

type PgliteReply =
  | { readonly id: number; readonly rows: any[]; readonly affectedRows: number | undefined }
  | { readonly id: number; readonly done: true }
  | { readonly id: number; readonly failure: PgliteFailure };

/** The thread's first message: the database is ready, or why it could not open. */
type PgliteStarted = { readonly ready: true } | { readonly ready: false; readonly failure: PgliteFailure };

/**
 * The service's embedded PGlite, owned by a worker thread (pglite-thread.mjs). PGlite runs every
 * statement on the thread that calls it, to its end, in WebAssembly: on the main thread a 100-row
 * INSERT or a dashboard's aggregate held the event loop for as long, and every other request waited
 * (the report-stall bench: /healthz p99 ×4.9 while a 10 MiB report went in). Here the main thread
 * only posts the statement and its parameters and reads the rows back.
 *
 * The answers are PGlite's own (its default type parsers run in the thread): a row crosses as a
 * structured clone, which keeps Dates, bigints, Uint8Arrays and parsed JSON as they are. A database
 * error crosses as its fields and is thrown here as an Error carrying them (`code`, `detail`,
 * `constraint` ...), as PGlite's own DatabaseError does.
 */
export interface PgliteThread {
  query(sql: string, params?: readonly unknown[]): Promise<{ rows: any[]; affectedRows: number | undefined }>;
  exec(sql: string): Promise<void>;
  /** Closes the database and ends the thread; later calls fail as on a closed PGlite. */
  close(): Promise<void>;
}

/** An error from the database thread, with PostgreSQL's fields. */
export class PgliteThreadError extends Error {
  constructor(failure: PgliteFailure) {
    super(failure.message);
    Object.assign(this, failure.fields);
    this.name = failure.name;
  }
}

/** The thread's file, plain JavaScript beside this one (also in the transpiled copy npm start runs). */
const THREAD_FILE = new URL('./pglite-thread.mjs', import.meta.url);

/**
 * A parameter as it should cross: a byte view of a larger buffer (a Buffer from Node's pool, a slice
 * of a read file) is copied to its own bytes, since a structured clone copies a view's whole buffer.
 */
function crossing(value: unknown): unknown {
  if (value instanceof Uint8Array && value.byteLength !== value.buffer.byteLength) return new Uint8Array(value);
  return value;
}

/** Opens the database in a new thread; resolves once it is ready (or rejects with why it could not open). */
export async function openPgliteThread(open: PgliteThreadOpen): Promise<PgliteThread> {
  const worker = new Worker(THREAD_FILE, { workerData: open });
  const pending = new Map<number, { resolve: (reply: PgliteReply) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let ended: Error | null = null;
  // The thread keeps the process alive only while an answer is awaited, as a pending query on an
  // in-process PGlite would: an idle open database never holds a process that is otherwise done.
  worker.unref();

  const started = new Promise<void>((resolve, reject) => {
    worker.once('message', (first: PgliteStarted) => (first.ready ? resolve() : reject(new PgliteThreadError(first.failure))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The embedded database's thread ended (exit code ${code}) before it opened`)));
  });
  worker.ref();
  try {
    await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  } finally {
    worker.unref();
  }

  worker.on('message', (reply: PgliteReply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if ('failure' in reply) waiter.reject(new PgliteThreadError(reply.failure));
    else waiter.resolve(reply);
  });
  const end = (error: Error): void => {
    ended ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => {
    // Every query from now on fails; the operator needs the reason, and a restart.
    log('error', 'the embedded database thread failed; restart the service', { reason: error.message });
    end(new Error(`The embedded database's thread failed: ${error.message}`));
  });
  worker.on('exit', () => end(new Error('PGlite is closed')));

  const send = (ask: PgliteAsk): Promise<PgliteReply> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    return new Promise<PgliteReply>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...ask, id } satisfies PgliteRequest);
    });
  };

  let closing: Promise<void> | null = null;
  return {
    async query(sql, params = []) {
      const reply = await send({ op: 'query', sql, params: params.map(crossing) });
      return 'rows' in reply ? { rows: reply.rows, affectedRows: reply.affectedRows } : { rows: [], affectedRows: undefined };
    },
    async exec(sql) {
      await send({ op: 'exec', sql });
    },
    close() {
      closing ??= (async () => {
        if (ended) return;
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        await send({ op: 'close' });
        // Held until the thread is gone, so that awaiting close() is what ends a process.
        worker.ref();
        await exited;
      })();
      return closing;
    },
  };
}

/** One connection over the thread: queries go one after another, as kysely-pglite-dialect's do. */
class ThreadConnection implements DatabaseConnection {
  constructor(private readonly thread: PgliteThread) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.thread.query(compiledQuery.sql, compiledQuery.parameters);
    return result.affectedRows ? { numAffectedRows: BigInt(result.affectedRows), rows: result.rows } : { rows: result.rows };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!Number.isInteger(chunkSize) || chunkSize === undefined || chunkSize <= 0) throw new Error('chunkSize must be a positive integer');
    const result = await this.thread.query(compiledQuery.sql, compiledQuery.parameters);
    for (let i = 0; i < result.rows.length; i += chunkSize) yield { rows: result.rows.slice(i, i + chunkSize) };
  }
}

/**
 * kysely-pglite-dialect's driver over the thread: one connection, lent to one caller at a time (a
 * transaction holds it from BEGIN to COMMIT; the next caller waits in a queue), transactions begun
 * with `begin` or `start transaction isolation level ...`, and destroy() closes the database.
 */
class ThreadDriver implements Driver {
  readonly #connection: ThreadConnection;
  #lent = false;
  readonly #queue: Array<(connection: ThreadConnection) => void> = [];

  constructor(private readonly thread: PgliteThread) {
    this.#connection = new ThreadConnection(thread);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#lent) {
      this.#lent = true;
      return this.#connection;
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    const next = this.#queue.shift();
    if (next) next(this.#connection);
    else this.#lent = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.thread.close();
  }
}

/** Kysely's dialect for a PGlite in a thread: PostgreSQL's adapter, compiler and introspector. */
export class PgliteThreadDialect implements Dialect {
  constructor(private readonly thread: PgliteThread) {}

  createAdapter(): PostgresAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new ThreadDriver(this.thread);
  }

  createQueryCompiler(): PostgresQueryCompiler {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
