import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { startService } from '../../server/start-service.js';
import { adminSocketPath } from '../../admin/admin-socket.js';
import { startTestService, type TestService, TEST_ADMIN_SETTINGS } from '../support/test-service.js';
import { repoRoot, transpiled } from '../support/spawn-server.js';
import { migratedDataDir } from '../support/test-database.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const admin = (...args: string[]) => runAdminCommand(service.services.db, args, TEST_ADMIN_SETTINGS);
const statuses = async (n: number, call: () => Promise<Response>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push((await call()).status);
  return out;
};

describe('per-account limits set by the operator', () => {
  it("set-limits lowers one account's reading allowance at once; another account keeps the default", async () => {
    const mine = await service.seedAccount();
    const other = await service.seedAccount();
    const set = await admin('set-limits', '--account', String(mine.accountId), '--read-per-minute', '2');
    expect(set).toEqual({
      ok: true,
      result: expect.objectContaining({ read_per_minute: { value: 2, source: 'account' }, change_per_minute: { value: 60, source: 'default' } }),
    });
    expect(await statuses(3, () => service.api('/v1/portal/orders', { key: mine.key }))).toEqual([200, 200, 429]);
    const refused = await service.api('/v1/portal/orders', { key: mine.key });
    expect(((await refused.json()) as { detail: string }).detail).toContain('2 per minute');
    expect(await statuses(3, () => service.api('/v1/portal/orders', { key: other.key }))).toEqual([200, 200, 200]);
  });

  it('the changing allowance follows the account too, and "default" gives the default back', async () => {
    const mine = await service.seedAccount();
    await admin('set-limits', '--account', String(mine.accountId), '--change-per-minute', '1');
    const create = () =>
      service.api('/v1/portal/workspaces', {
        key: mine.key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `W ${Math.random()}` }),
      });
    expect((await statuses(2, create))[1]).toBe(429);
    const back = await admin('set-limits', '--account', String(mine.accountId), '--change-per-minute', 'default');
    expect(back.ok && back.result.change_per_minute).toEqual({ value: 60, source: 'default' });
    expect((await create()).status).not.toBe(429);
  });

  it('get-limits reads them; bad values and unknown accounts are refused with a sentence', async () => {
    const mine = await service.seedAccount();
    expect(await admin('get-limits', '--account', String(mine.accountId))).toEqual({
      ok: true,
      result: {
        account_id: mine.accountId,
        read_per_minute: { value: 240, source: 'default' },
        change_per_minute: { value: 60, source: 'default' },
        orders_per_hour: { value: 12, source: 'default' },
      },
    });
    expect(await admin('set-limits', '--account', String(mine.accountId), '--orders-per-hour', '0')).toEqual({
      ok: false,
      error: expect.stringContaining('at least 1'),
    });
    expect(await admin('set-limits', '--account', String(mine.accountId))).toEqual({ ok: false, error: expect.stringContaining('at least one of') });
    expect(await admin('get-limits', '--account', '999999')).toEqual({ ok: false, error: 'There is no account 999999.' });
    expect(await admin('set-limitz')).toEqual({ ok: false, error: expect.stringContaining('Unknown command') });
  });

  it('list-keys shows each key with its prefix, scopes, last use and revocation', async () => {
    const mine = await service.seedAccount();
    const before = await admin('list-keys', '--account', String(mine.accountId));
    expect(before.ok && (before.result.keys as { last_used_at: string | null }[])[0]!.last_used_at).toBeNull();
    await service.api('/v1/portal/orders', { key: mine.key });
    // last_used_at is written after the answer, without the request waiting on it.
    type Listed = { key_id: number; prefix: string; scopes: string[]; last_used_at: string | null; revoked_at: string | null }[];
    const keys = await waitFor(
      'last_used_at written',
      async () => {
        const listed = await admin('list-keys', '--account', String(mine.accountId));
        const found = listed.ok ? (listed.result.keys as Listed) : [];
        return found[0]?.last_used_at ? found : null;
      },
      20_000,
      20,
    );
    expect(keys).toEqual([
      expect.objectContaining({ key_id: mine.keyId, prefix: mine.key.slice(0, 14), scopes: ['read', 'write', 'orders:place'], revoked_at: null }),
    ]);
    expect(Date.parse(keys[0]!.last_used_at!)).toBeGreaterThan(Date.now() - 60_000);
    await admin('revoke-key', '--key-id', String(mine.keyId));
    const after = await admin('list-keys', '--account', String(mine.accountId));
    expect(after.ok && (after.result.keys as { revoked_at: string | null }[])[0]!.revoked_at).not.toBeNull();
  });
});

describe('key and price commands', () => {
  it('create-key makes a key with the scopes asked for, which reads at once; an unknown account or scope is refused', async () => {
    const mine = await service.seedAccount();
    const made = await admin('create-key', '--account', String(mine.accountId), '--scopes', 'read,read');
    expect(made).toEqual({ ok: true, result: { key: expect.stringMatching(/^sk_test_/), key_id: expect.any(Number), scopes: ['read'] } });
    const key = made.ok ? String(made.result.key) : '';
    expect((await service.api('/v1/portal/orders', { key })).status).toBe(200);
    expect(await admin('create-key', '--account', '999999', '--scopes', 'read')).toEqual({ ok: false, error: 'There is no account 999999.' });
    expect(await admin('create-key', '--account', String(mine.accountId), '--scopes', 'admin')).toEqual({
      ok: false,
      error: 'Unknown scope admin; use read, write, orders:place.',
    });
  });

  it('revoke-key stops a key on its next request; an unknown key is refused', async () => {
    const mine = await service.seedAccount();
    expect(await admin('revoke-key', '--key-id', String(mine.keyId))).toEqual({ ok: true, result: { revoked: true } });
    expect((await service.api('/v1/portal/orders', { key: mine.key })).status).toBe(401);
    expect(await admin('revoke-key', '--key-id', '999999')).toEqual({ ok: false, error: 'There is no key 999999.' });
  });

  it('set-plan-price changes the price the catalogue shows and says the old one; add-plan refuses a plan the account is on', async () => {
    const mine = await service.seedAccount();
    const price = async () => {
      const body = await (await service.api('/v1/catalogue', { key: mine.key })).json();
      return body.plans.find((p: { sku: string }) => p.sku === 'google-inbox-unwarmed').unit_amount;
    };
    const before = await price();
    const set = await admin('set-plan-price', '--account', String(mine.accountId), '--sku', 'google-inbox-unwarmed', '--unit-amount', '425');
    expect(set).toEqual({
      ok: true,
      result: {
        account_id: mine.accountId,
        sku: 'google-inbox-unwarmed',
        unit_amount: 425,
        previous_unit_amount: before,
        currency: 'usd',
        processor_price_id: 'price_demo_google_unwarmed',
      },
    });
    expect(await price()).toBe(425);
    expect(await admin('set-plan-price', '--account', String(mine.accountId), '--sku', 'no-such-plan', '--unit-amount', '1')).toEqual({
      ok: false,
      error: `Account ${mine.accountId} has no plan with sku "no-such-plan".`,
    });
    expect(await admin('add-plan', '--account', String(mine.accountId), '--sku', 'google-inbox-unwarmed')).toEqual({
      ok: false,
      error: `Account ${mine.accountId} is already on "google-inbox-unwarmed"; change its price with set-plan-price.`,
    });
  });
});

describe('PUBLIC_RATE_LIMIT_PER_MINUTE', () => {
  it('sets the keyless allowance per client address', async () => {
    const limited = await startTestService({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '2', DNS_SERVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '50', DNS_TRIES: '1' } });
    try {
      const codes = await statuses(3, () => limited.pub('/.platform/functions/check-dmarc?domain=example.com'));
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('a value that is not a whole number stops the start with a sentence naming the variable', async () => {
    const env = { ...process.env, LOG_LEVEL: 'silent', PUBLIC_RATE_LIMIT_PER_MINUTE: 'lots' };
    const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: undefined, dataDir: 'memory' };
    await expect(startService(config, { env })).rejects.toThrow('PUBLIC_RATE_LIMIT_PER_MINUTE must be a whole number');
  });
});

describe('operator commands while npm start holds the embedded database', () => {
  it('are handed to the running service over its admin socket, which only its user can open', async () => {
    const dataDir = migratedDataDir('svc-admin-');
    const config = { ...serviceConfigFromEnv({ ...process.env, LOG_LEVEL: 'silent' }), publicPort: 0, apiPort: 0, databaseUrl: undefined, dataDir };
    const running = await startService(config);
    try {
      expect(statSync(adminSocketPath(dataDir)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, 'admin')).mode & 0o777).toBe(0o700);
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, [transpiled('admin/cli.ts'), ...args], {
          cwd: repoRoot,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        }).then(
          (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
        );
      const created = await run('create-account', '--name', 'Handed over');
      expect(created.code).toBe(0);
      const { account_id: accountId } = JSON.parse(created.out) as { account_id: number };
      const found = await running.database.db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
      expect(found?.name).toBe('Handed over');
      // A new account starts on the default plan (DEFAULT_PLAN_SKUS), so its people can order at once.
      const skus = async () =>
        (await running.database.db.selectFrom('plans').select('sku').where('account_id', '=', accountId).orderBy('sku').execute()).map((p) => p.sku);
      expect(await skus()).toEqual(['google-inbox-unwarmed']);
      const added = await run('add-plan', '--account', String(accountId), '--sku', 'microsoft-inbox', '--unit-amount', '500');
      expect(added.code).toBe(0);
      expect(JSON.parse(added.out)).toMatchObject({ sku: 'microsoft-inbox', unit_amount: 500, orderable: false });
      expect(await skus()).toEqual(['google-inbox-unwarmed', 'microsoft-inbox']);
      const unknown = await run('add-plan', '--account', String(accountId), '--sku', 'no-such-plan');
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.err).error).toMatch(/--sku must be one of google-inbox-unwarmed/);
      const refused = await run('get-limits', '--account', '424242');
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.err)).toEqual({ error: 'There is no account 424242.' });
    } finally {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Four operator commands, each a fresh `node --import tsx` process: a minute is tight on a shared machine.
  }, 120_000);
});
