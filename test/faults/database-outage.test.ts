import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../db/open-database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { seedDemo } from '../../admin/seed-demo.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The database goes away under load and comes back. A private PostgreSQL cluster (initdb into a
 * temporary folder, on a free port) is stopped with `pg_ctl -m immediate` — a crash, not a polite
 * shutdown — while one real server process answers reads and writes, then started again. Needs the
 * PostgreSQL server binaries (initdb, pg_ctl); skipped with the reason otherwise.
 */
function findBinary(name: string): string | null {
  for (const candidate of [
    `/usr/local/bin/${name}`,
    `/usr/bin/${name}`,
    ...['17', '16', '15', '14', '13'].map((v) => `/usr/lib/postgresql/${v}/bin/${name}`),
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
const initdb = findBinary('initdb');
const pgCtl = findBinary('pg_ctl');
const isRoot = process.getuid?.() === 0;
const hasPostgresUser = (() => {
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const skipReason =
  !initdb || !pgCtl ? 'initdb and pg_ctl are not installed' : isRoot && !hasPostgresUser ? 'initdb refuses to run as root and there is no postgres user' : '';

/** initdb refuses root (STACK.md pitfall 10), so as root the cluster runs as the postgres user. */
function asClusterOwner(binary: string, args: string[]): void {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  execFileSync(cmd, argv, { stdio: 'pipe', timeout: 60_000 });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Outcome {
  /** When the request was sent and when its answer was read, in ms since the test started. */
  readonly sent: number;
  readonly at: number;
  readonly kind: 'read' | 'write' | 'ready';
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly name?: string;
}

describe.skipIf(Boolean(skipReason))(`the database goes away mid-load and comes back${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let dir: string;
  let port: number;
  let databaseUrl: string;
  let server: SpawnedServer;
  let key: string;
  let accountId: number;
  const dataDir = () => join(dir, 'data');
  const startCluster = () =>
    asClusterOwner(pgCtl!, ['-D', dataDir(), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', join(dir, 'pg.log'), '-w', 'start']);
  const stopCluster = (mode: 'immediate' | 'fast') => asClusterOwner(pgCtl!, ['-D', dataDir(), '-m', mode, '-w', 'stop']);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proof-pg-'));
    if (isRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
    port = await freePort();
    asClusterOwner(initdb!, ['-D', dataDir(), '-U', 'app', '--auth=trust', '--no-sync']);
    startCluster();
    databaseUrl = `postgres://app@127.0.0.1:${port}/postgres`;
    const database = await openDatabase({ databaseUrl });
    try {
      await migrateToLatest(database.db);
      const demo = await seedDemo(database.db, 'test');
      key = demo.key;
      accountId = demo.accountId;
    } finally {
      await database.close();
    }
    server = await spawnServer({ env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT_READ_PER_MINUTE: '1000000' } });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) {
      try {
        stopCluster('fast');
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('requests during the outage get 503 with a detail (never 500), /readyz says unavailable, and the same process recovers', async () => {
    const started = Date.now();
    const outcomes: Outcome[] = [];
    let running = true;
    let writes = 0;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const record = async (kind: Outcome['kind'], send: () => Promise<Response>, name?: string) => {
      const sent = Date.now() - started;
      const response = send();
      let r: Response;
      try {
        r = await response;
      } catch (error) {
        // The process stopped answering (it should not): recorded as status 0 and reported below.
        outcomes.push({ sent, at: Date.now() - started, kind, status: 0, body: { error: String((error as Error).cause ?? error) } });
        // Pacing, not waiting for a state: a reader whose connection fails must not spin.
        await new Promise((res) => setTimeout(res, 50));
        return;
      }
      const text = await r.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text);
      } catch {
        body = { unparsed: text.slice(0, 200) };
      }
      outcomes.push({ sent, at: Date.now() - started, kind, status: r.status, body, ...(name ? { name } : {}) });
    };
    const readers = Array.from({ length: 4 }, async () => {
      while (running) await record('read', () => fetch(`${server.apiUrl}/v1/portal/dashboard`, { headers }));
    });
    // Writes every 400 ms (the changing allowance is 60 a minute per key).
    const writer = (async () => {
      while (running) {
        const name = `outage-${writes++}`;
        await record('write', () => fetch(`${server.apiUrl}/v1/portal/workspaces`, { method: 'POST', headers, body: JSON.stringify({ name }) }), name);
        // Pacing, not waiting for a state: at most 150 writes a minute would pass the allowance's 60.
        await new Promise((r) => setTimeout(r, 400));
      }
    })();

    // Each phase lasts until enough requests were answered in it (reads and a write), not a fixed time.
    const sentAfter = (ms: number, kind?: Outcome['kind']) => outcomes.filter((o) => o.sent > ms && (!kind || o.kind === kind)).length;
    await waitFor('traffic answered before the outage', () => sentAfter(-1, 'read') >= 8 && sentAfter(-1, 'write') >= 1, 60_000);
    const stoppedAt = Date.now() - started;
    stopCluster('immediate');
    // pg_ctl runs synchronously and holds this process's event loop: answers read after it may have
    // been sent before the crash. The outage window counts requests by when they were sent.
    const stopDoneAt = Date.now() - started;
    await waitFor('reads answered during the outage', () => sentAfter(stopDoneAt, 'read') >= 8, 60_000);
    expect(server.child.exitCode, `the server process exited during the outage:\n${server.stderr().slice(-3000)}`).toBeNull();
    const ready = await fetch(`${server.apiUrl}/readyz`);
    expect(ready.status).toBe(503);
    const readyBody = await ready.json();
    expect(readyBody.status).toBe('unavailable');
    expect(String(readyBody.detail)).toMatch(/database/);
    const restartingAt = Date.now() - started;
    startCluster();
    const restartedAt = Date.now() - started;

    // The same process comes back by itself: no restart, bounded time.
    await waitFor(
      '/readyz ready again',
      async () => {
        const r = await fetch(`${server.apiUrl}/readyz`);
        await r.arrayBuffer();
        return r.status === 200;
      },
      60_000,
      200,
    );
    const recoveredAt = Date.now() - started;
    await waitFor(
      'requests answered after the recovery',
      () => sentAfter(recoveredAt + 500, 'read') >= 8 && sentAfter(recoveredAt + 500, 'write') >= 1,
      60_000,
    );
    running = false;
    await Promise.all([...readers, writer]);
    expect(server.child.exitCode, `the server process exited:\n${server.stderr().slice(-3000)}`).toBeNull();

    // During: sent once the cluster was down and answered before it was started again. After: sent
    // half a second after /readyz said ready. (By the time an answer was read, the load could shift
    // a request sent before the crash into the window, or one sent during it past the restart.)
    const during = outcomes.filter((o) => o.sent > stopDoneAt && o.at < restartingAt);
    const after = outcomes.filter((o) => o.sent > recoveredAt + 500);
    const summary = (list: Outcome[]) => list.reduce<Record<number, number>>((m, o) => ({ ...m, [o.status]: (m[o.status] ?? 0) + 1 }), {});
    console.log(
      `outage at ${stoppedAt}-${stopDoneAt} ms, restart at ${restartedAt} ms, ready again at ${recoveredAt} ms; during: ${JSON.stringify(summary(during))}; after: ${JSON.stringify(summary(after))}; all: ${JSON.stringify(summary(outcomes))}`,
    );

    // Never a 500: every failure is a 503 with a sentence and a retry hint.
    expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503).map((o) => ({ status: o.status, body: o.body }))).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      expect(typeof o.body.detail).toBe('string');
      expect(String(o.body.detail)).toMatch(/database|retry/i);
    }
    expect(during.every((o) => o.status === 503)).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.status === 200)).toBe(true);

    // Nothing half-written: every acknowledged write is there exactly once; none is there twice.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query("select name, count(*)::int as n from workspaces where account_id = $1 and name like 'outage-%' group by name", [
        accountId,
      ]);
      const stored = new Map(rows.map((r) => [r.name as string, r.n as number]));
      for (const o of outcomes.filter((x) => x.kind === 'write' && x.status === 200)) expect(stored.get(o.name!)).toBe(1);
      for (const n of stored.values()) expect(n).toBe(1);
      const refused = outcomes.filter((x) => x.kind === 'write' && x.status !== 200 && stored.has(x.name!));
      // A write refused before it reached the database must have left nothing behind.
      for (const o of refused) expect(o.body.code).not.toBe('auth_unavailable');
    } finally {
      await client.end();
    }
  }, 240_000);
});
