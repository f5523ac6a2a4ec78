// Runs in the worker thread that owns the service's embedded PGlite (pglite-over-thread.ts starts it
// and holds the types of the messages below), never on the main thread: PGlite is PostgreSQL compiled
// to WebAssembly and runs each statement to its end on the thread that calls it, so here a long INSERT
// or a heavy read holds this thread while the main thread's event loop goes on answering requests.
//
// Plain JavaScript: a worker thread loads its file with Node's own loader, which reads no TypeScript
// (tsx's hooks do not reach a worker's entry on Node 20, vitest's transform no worker at all), and
// this way the thread starts the same under npm start, tsx and vitest, with nothing to transpile.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * A database error crosses the thread as data: a structured clone keeps an Error's message and stack
 * only, and callers read PostgreSQL's fields (`code` 23505 for a unique violation, `detail`, ...).
 */
function failureOf(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  return { name: error.name, message: error.message, fields };
}

/** Opens the database (workerData: { dataDir: folder or null for memory, startParams }), then answers requests. */
async function serve(port, open) {
  let client;
  try {
    client = open.dataDir === null ? new PGlite({ startParams: [...(open.startParams ?? [])] }) : new PGlite(open.dataDir);
    await client.waitReady;
  } catch (error) {
    port.postMessage({ ready: false, failure: failureOf(error) });
    port.close();
    return;
  }
  // Each request goes to PGlite as it arrives: PGlite runs them one at a time in the order they were
  // called, which is the order the main thread sent them.
  port.on('message', (request) => {
    const fail = (error) => port.postMessage({ id: request.id, failure: failureOf(error) });
    if (request.op === 'query')
      client.query(request.sql, request.params).then((r) => port.postMessage({ id: request.id, rows: r.rows, affectedRows: r.affectedRows }), fail);
    else if (request.op === 'exec') client.exec(request.sql).then(() => port.postMessage({ id: request.id, done: true }), fail);
    else
      client.close().then(() => {
        port.postMessage({ id: request.id, done: true });
        // Nothing more will come: the thread ends once the answer is sent.
        port.close();
      }, fail);
  });
  port.postMessage({ ready: true });
}

if (parentPort) void serve(parentPort, workerData);
