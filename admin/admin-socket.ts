import { createConnection, createServer, type Server } from 'node:net';
import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { z } from 'zod';
import { runAdminCommand, type AdminOutcome, type AdminSettings } from './run-admin-command.js';

/** What the service answers over the socket: an AdminOutcome. */
const AdminAnswer = z.union([
  z.object({ ok: z.literal(true), result: z.record(z.string(), z.unknown()) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/**
 * Embedded PGlite serves one process, so while `npm start` holds a data folder an operator command
 * hands its work to the running service instead: one JSON line `{"args": [...]}` over a Unix socket
 * inside the data folder, one JSON line back. The socket lives in a folder only the service's user
 * can enter (mode 0700), so only the operator reaches it; nothing listens on the network.
 */
export function adminSocketPath(dataDir: string): string {
  return join(resolve(dataDir), 'admin', 'admin.sock');
}

/** Largest request line accepted: commands are a few options, never more. */
const MAX_LINE_BYTES = 16_384;

export async function serveAdminSocket(db: Kysely<Database>, dataDir: string, settings: AdminSettings): Promise<Server> {
  const path = adminSocketPath(dataDir);
  const folder = join(resolve(dataDir), 'admin');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  // We hold the data folder's lock, so a socket file left here is from a service that died.
  if (existsSync(path)) unlinkSync(path);
  const server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_LINE_BYTES) {
        socket.end(JSON.stringify({ ok: false, error: 'The admin request is too long.' }) + '\n');
        return;
      }
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      const line = buffered.slice(0, newline);
      buffered = '';
      void answer(db, line, settings).then((outcome) => socket.end(JSON.stringify(outcome) + '\n'));
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      done();
    });
  });
  chmodSync(path, 0o600);
  return server;
}

async function answer(db: Kysely<Database>, line: string, settings: AdminSettings): Promise<AdminOutcome> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { ok: false, error: 'The admin request is not JSON.' };
  }
  const args = typeof request === 'object' && request !== null && 'args' in request ? request.args : undefined;
  if (!Array.isArray(args) || !args.every((a): a is string => typeof a === 'string'))
    return { ok: false, error: 'The admin request must be {"args": [strings]}.' };
  return runAdminCommand(db, args, settings);
}

/** Sends one command to the service holding `dataDir`; null when no service answers there. */
export function sendAdminCommand(dataDir: string, args: readonly string[], timeoutMs = 30_000): Promise<AdminOutcome | null> {
  const path = adminSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((done) => {
    const socket = createConnection(path);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      done({ ok: false, error: `The running service did not answer the command within ${timeoutMs / 1000} seconds.` });
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify({ args }) + '\n'));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {
      clearTimeout(timer);
      done(null);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try {
        const outcome = AdminAnswer.safeParse(JSON.parse(received));
        done(outcome.success ? outcome.data : { ok: false, error: 'The running service sent an answer that is not an admin outcome.' });
      } catch {
        done({ ok: false, error: 'The running service sent an answer that is not JSON.' });
      }
    });
  });
}
