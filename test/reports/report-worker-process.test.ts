import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dmarcFixture, gzip } from '../support/report-files.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

/**
 * The report worker threads start in a real process run from the transpiled copy with plain node
 * (no tsx): the pool finds report-worker.js beside itself. A report is read there (parsed in a
 * thread) and answered; nothing is stored for a domain no account has.
 */
let dir: string;
let server: SpawnedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'report-worker-'));
  server = await spawnServer({ env: { DATA_DIR: dir } });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('report workers in a spawned server', () => {
  it('an upload is unpacked and parsed in a worker thread of the transpiled copy', async () => {
    await vi.waitFor(() => expect(server.stdout()).toMatch(/^ {2}sk_test_\S+$/m), { timeout: 30_000, interval: 100 });
    const key = /^ {2}(sk_test_\S+)$/m.exec(server.stdout())?.[1] ?? '';
    const response = await fetch(`${server.apiUrl}/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/gzip' },
      body: new Uint8Array(gzip(dmarcFixture('google.xml', { domain: 'nobody-owns-this.test', reportId: 'spawned-1' }))),
    });
    expect(response.status).toBe(400);
    // The organisation and report id come from the parsed XML: the worker read it.
    expect(await response.json()).toMatchObject({
      code: 'unknown_domain',
      files: [{ status: 'unknown_domain', org_name: 'google.com', report_id: 'spawned-1', domain: 'nobody-owns-this.test' }],
    });
  });
});
