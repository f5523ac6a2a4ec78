import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { waitFor } from '../support/wait-for.js';
import { migratedDataDir } from '../support/test-database.js';

/**
 * SIGTERM (what a container platform sends before replacing an instance) while a slow request is in
 * flight: the request completes, new connections are refused, then the process exits 0.
 */
describe('SIGTERM while a slow request is in flight', () => {
  const DELAY_MS = 2000;
  let dns: TestDnsServer;
  let server: SpawnedServer;
  // A migrated folder rather than DATA_DIR=memory: the subject is the shutdown, not initdb.
  const dataDir = migratedDataDir('graceful-shutdown-');
  beforeAll(async () => {
    // Every DNS answer takes 2 s, so a check-dns request is in flight for at least that long.
    dns = await startTestDnsServer({ records: fixtureZone, delayMs: DELAY_MS });
    server = await spawnServer({ env: { DATA_DIR: dataDir, DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '8000', DNS_TRIES: '1' } });
  }, 90_000);
  afterAll(async () => {
    await server?.stop(2000);
    await dns?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the request completes with its answer, a new connection is refused, and the process exits 0', async () => {
    const started = performance.now();
    const slow = fetch(`${server.publicUrl}/.platform/functions/check-dns?domain=good.test&type=MX`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
      at: performance.now() - started,
    }));
    // SIGTERM once the request has reached its DNS lookup (whose answer then takes 2 s), however
    // long a loaded machine takes to get it there: a fixed 500 ms was once not enough.
    await waitFor('the request at its DNS lookup', () => dns.questions.length > 0, 30_000);
    server.signal('SIGTERM');
    // The process logs "shutting down" and closes its listeners in the same turn of its event loop
    // (server/main.ts, start-service.ts stop()), so once the line is out the port refuses: no fixed wait.
    await waitFor('"shutting down" in the log', () => server.logLines().some((l) => l.message === 'shutting down'), 30_000);
    const refused = await fetch(`${server.publicUrl}/healthz`).then(
      () => 'answered',
      (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
    );
    expect(refused).toMatch(/ECONNREFUSED/);

    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('pass');
    expect(answer.body.records).toEqual([expect.objectContaining({ exchange: 'mx.good.test' })]);
    expect(answer.at).toBeGreaterThanOrEqual(DELAY_MS - 50);

    // The exit itself, however long a busy machine takes to get there (the test's timeout guards a hang).
    expect(await server.exited).toBe(0);
    const lines = server.logLines();
    const shutdown = lines.findIndex((l) => l.message === 'shutting down' && l.signal === 'SIGTERM');
    const served = lines.findIndex((l) => l.message === 'request' && String(l.path).includes('check-dns') && l.status === 200);
    expect(shutdown).toBeGreaterThanOrEqual(0);
    expect(served).toBeGreaterThan(shutdown); // logged after the signal: it finished during the shutdown
  }, 90_000);
});
