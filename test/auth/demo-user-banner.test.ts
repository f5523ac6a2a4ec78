import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';

describe('npm start on an empty embedded database', () => {
  let dir: string;
  let server: SpawnedServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-user-'));
    server = await spawnServer({ env: { DATA_DIR: dir } });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("prints the demo key (sk_test_ in sandbox mode) and the demo owner's e-mail and password, which sign in", async () => {
    await waitFor('the password in the banner', () => /password: \S+/.test(server.stdout()));
    const out = server.stdout();
    expect(out).toMatch(/^ {2}sk_test_[A-Za-z0-9_-]{40,}$/m);
    expect(out).toContain('e-mail:   demo@example.com');
    expect(out).toContain(`POST ${server.apiUrl}/auth/sign-in`);
    const password = /password: (\S+)/.exec(out)?.[1] ?? '';
    const response = await fetch(`${server.apiUrl}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password }),
    });
    expect(response.status).toBe(200);
  });
});
