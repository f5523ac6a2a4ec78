import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/test-service.js';
import { readSettings } from '../../config/settings.js';
import { signUpDirect } from './people-support.js';

/** An address of this machine other than loopback, to tell "bound to 127.0.0.1" from "bound to every address". */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const noOutside = outside === undefined ? ' (skipped: this machine has no address but loopback to try from)' : '';

const started: TestService[] = [];
afterAll(async () => {
  for (const service of started) await service.close();
});

async function start(env: NodeJS.ProcessEnv): Promise<TestService> {
  const service = await startTestService({ env });
  started.push(service);
  return service;
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('the outbox', () => {
  it('writes reset and invitation links as 0600 files in a 0700 folder, tightening a folder made 0755 before', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'outbox-modes-'));
    const outbox = join(parent, 'outbox');
    try {
      const loose = mkdtempSync(join(parent, 'x'));
      chmodSync(loose, 0o755);
      const service = await start({ ALERT_OUTBOX_DIR: loose });
      const owner = await signUpDirect(service, 'modes@example.com');
      await service.api('/auth/password-reset', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'modes@example.com' }),
      });
      expect(modeOf(loose)).toBe('700');
      const files = readdirSync(loose);
      expect(files.length).toBe(1);
      expect(modeOf(join(loose, files[0]!))).toBe('600');
      expect(owner.cookie).toMatch(/^svc_session=/);
      // A folder that does not exist yet is made 0700.
      const fresh = await start({ ALERT_OUTBOX_DIR: outbox });
      await fresh.api('/auth/password-reset', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'no-one@example.com' }),
      });
      await signUpDirect(fresh, 'fresh-modes@example.com');
      await fresh.api('/auth/password-reset', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'fresh-modes@example.com' }),
      });
      expect(modeOf(outbox)).toBe('700');
      expect(readdirSync(outbox).map((f) => modeOf(join(outbox, f)))).toEqual(['600']);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('the metrics listener', () => {
  it.skipIf(outside === undefined)(`binds 127.0.0.1 by default even when HOST opens the listeners to the network${noOutside}`, async () => {
    const service = await start({ HOST: '0.0.0.0', METRICS_PORT: '0' });
    const port = new URL(service.metricsUrl!).port;
    expect(new URL(service.metricsUrl!).hostname).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    // The API is reachable at the outside address (HOST), the metrics are not.
    expect((await fetch(`http://${outside}:${new URL(service.apiUrl).port}/health`)).status).toBeLessThan(500);
    await expect(fetch(`http://${outside}:${port}/metrics`)).rejects.toThrow();
  });

  it.skipIf(outside === undefined)(`binds METRICS_HOST when set${noOutside}`, async () => {
    const service = await start({ METRICS_HOST: '0.0.0.0', METRICS_PORT: '0' });
    const port = new URL(service.metricsUrl!).port;
    expect((await fetch(`http://${outside}:${port}/metrics`)).status).toBe(200);
  });

  it('refuses a METRICS_HOST that is not an address with a sentence naming the variable', () => {
    expect(() => readSettings({ METRICS_HOST: 'every interface' })).toThrow(/METRICS_HOST must be an IP address/);
    expect(readSettings({}).metricsHost).toBe('127.0.0.1');
  });
});
