import { afterAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { startService, type RunningService } from '../../server/start-service.js';
import { seedDemo } from '../../admin/seed-demo.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { repoRoot, transpiled } from '../support/spawn-server.js';
import { migratedDataDir } from '../support/test-database.js';
import { waitFor } from '../jobs/webhook-receiver.js';

/**
 * SECRETS_KEY checked at start (docs/operations.md, "Rotating SECRETS_KEY"): a sealed canary in the
 * database; a start with another key stops with a sentence naming SECRETS_KEY and rotate-secrets
 * instead of 500s later; `admin rotate-secrets --from OLD` re-seals every secret, after which the new
 * key starts and opens them; unset outside production, a start warns; the embedded database's folder
 * is 0700 and its files 0600.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const baseEnv = { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', STRIPE_SECRET_KEY: '' };

async function startOn(dataDir: string, key: Buffer | null): Promise<RunningService> {
  const env = { ...baseEnv, SECRETS_KEY: key === null ? '' : key.toString('base64'), DATA_DIR: dataDir };
  const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: undefined, dataDir };
  return startService(config, { env });
}

async function rotate(dataDir: string, newKey: Buffer, ...args: string[]) {
  return promisify(execFile)(process.execPath, [transpiled('admin/cli.ts'), 'rotate-secrets', ...args], {
    cwd: repoRoot,
    env: { ...baseEnv, DATA_DIR: dataDir, SECRETS_KEY: newKey.toString('base64') },
  }).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
  );
}

describe('SECRETS_KEY checked at start', () => {
  it('another key stops the start with a sentence; rotate-secrets --from OLD re-seals every secret and the new key then starts and opens them', async () => {
    const dataDir = migratedDataDir('svc-secrets-');
    dirs.push(dataDir);
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);

    // Sealed secrets through the doors: a DNS connection's TSIG secret (REST) and the sign-in's keys (JWKS).
    const first = await startOn(dataDir, oldKey);
    const tsig = randomBytes(32).toString('base64');
    let accountId: number;
    let jwks: unknown;
    try {
      const demo = await seedDemo(first.services.db, 'test');
      accountId = demo.accountId;
      const made = await fetch(`${first.apiUrl}/v1/dns-connections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'rfc2136', server: '93.184.215.14', key_name: 'update-key', secret: tsig }),
      });
      expect(made.status).toBe(200);
      const keys = await fetch(`${first.apiUrl}/oauth/jwks`);
      expect(keys.status).toBe(200);
      jwks = await keys.json();
    } finally {
      await first.stop();
    }

    // The folder is 0700 and every file in it 0600.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(dataDir, { withFileTypes: true, recursive: true });
    expect(entries.filter((e) => e.isFile()).length).toBeGreaterThan(10);
    const modeOf = (entry: (typeof entries)[number]) => statSync(join(entry.parentPath, entry.name)).mode & 0o777;
    const open = entries.filter((e) => (e.isDirectory() && modeOf(e) !== 0o700) || (e.isFile() && modeOf(e) !== 0o600));
    expect(open.map((e) => `${join(e.parentPath, e.name)} ${modeOf(e).toString(8)}`)).toEqual([]);

    // Another key: the start stops, naming SECRETS_KEY and how to rotate, and leaves the lock free.
    await expect(startOn(dataDir, newKey)).rejects.toThrow(
      /^SECRETS_KEY is not the key this database's secrets were sealed with \(the sealed canary in secrets_canary does not open\)\. .*rotate-secrets --from OLD_KEY/,
    );
    // Unset (the development key) is another key too, and the sentence says so.
    await expect(startOn(dataDir, null)).rejects.toThrow(/^SECRETS_KEY is unset, so the public development key is in use, which is not the key/);

    // The operator's command, as the CLI runs it (the service stopped): a wrong --from changes nothing.
    const wrong = await rotate(dataDir, newKey, '--from', randomBytes(32).toString('base64'));
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.err).error).toMatch(/opens with neither --from nor SECRETS_KEY; nothing was changed/);
    const missing = await rotate(dataDir, newKey);
    expect(JSON.parse(missing.err).error).toMatch(/--from is the key the secrets are sealed with now/);
    const rotated = await rotate(dataDir, newKey, '--from', oldKey.toString('hex'));
    expect(rotated.code, rotated.err).toBe(0);
    // The TSIG secret, the two sign-in keys (JWKS and cookies) and the canary.
    expect(JSON.parse(rotated.out)).toEqual({ rotated: true, resealed: 4, already_current: 0 });
    const again = await rotate(dataDir, newKey, '--from', oldKey.toString('base64'));
    expect(JSON.parse(again.out)).toEqual({ rotated: true, resealed: 0, already_current: 4 });

    // The old key is now the wrong one; the new one starts and every secret opens under it.
    await expect(startOn(dataDir, oldKey)).rejects.toThrow(/SECRETS_KEY is not the key/);
    const second = await startOn(dataDir, newKey);
    try {
      const row = await second.services.db.selectFrom('dns_connections').select('secret_sealed').executeTakeFirstOrThrow();
      expect(decryptSecret(newKey, row.secret_sealed, `dns-connection:${accountId}`)).toBe(tsig);
      const keys = await fetch(`${second.apiUrl}/oauth/jwks`);
      expect(keys.status).toBe(200);
      expect(await keys.json()).toEqual(jwks);
      expect((await fetch(`${second.apiUrl}/.well-known/oauth-authorization-server`)).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('unset outside production, the start prints a warning that the development key is in use', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const env = { ...baseEnv, LOG_LEVEL: 'info', LOG_REQUESTS: '0', SECRETS_KEY: '' };
    const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: undefined, dataDir: 'memory' };
    const running = await startService(config, { env });
    try {
      const warning = await waitFor('the warning', async () =>
        lines
          .join('')
          .split('\n')
          .find((line) => line.includes('SECRETS_KEY is unset')),
      );
      expect(JSON.parse(warning)).toMatchObject({ level: 'warn', message: expect.stringMatching(/development key is in use.*rotate-secrets/) });
    } finally {
      await running.stop();
      spy.mockRestore();
    }
  });
});
