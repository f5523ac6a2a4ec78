import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serviceConfigFromEnv } from '../../config/settings.js';

/**
 * With NODE_ENV=production the development defaults of the domain setup are refused: REPORTS_DOMAIN
 * (reports.localhost sends every customer's DMARC reports nowhere) and FORWARD_TARGET (127.0.0.1
 * would be published as the A record over a customer's website), each named, as SECRETS_KEY is.
 */
const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const KEY = 'ab'.repeat(32);

function startMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [MAIN], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOG_LEVEL: 'silent', PUBLIC_PORT: '0', API_PORT: '0', DATA_DIR: 'memory', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('production settings', () => {
  it('each missing variable is named at once: REPORTS_DOMAIN and FORWARD_TARGET beside SECRETS_KEY', () => {
    expect(() => serviceConfigFromEnv({ NODE_ENV: 'production', SECRETS_KEY: KEY })).toThrow(
      /REPORTS_DOMAIN must be set when NODE_ENV=production.*FORWARD_TARGET must be set when NODE_ENV=production/,
    );
    expect(() => serviceConfigFromEnv({ NODE_ENV: 'production', SECRETS_KEY: KEY, REPORTS_DOMAIN: 'reports.example.com' })).toThrow(
      /^FORWARD_TARGET must be set when NODE_ENV=production: the public IPv4 address/,
    );
    expect(() => serviceConfigFromEnv({ NODE_ENV: 'production', SECRETS_KEY: KEY, FORWARD_TARGET: '192.0.2.80' })).toThrow(
      /^REPORTS_DOMAIN must be set when NODE_ENV=production/,
    );
    const error = (() => {
      try {
        serviceConfigFromEnv({ NODE_ENV: 'production' });
        return null;
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/SECRETS_KEY must be set.*REPORTS_DOMAIN must be set.*FORWARD_TARGET must be set/);
    // An empty value is not a setting.
    expect(() => serviceConfigFromEnv({ NODE_ENV: 'production', SECRETS_KEY: KEY, REPORTS_DOMAIN: 'reports.example.com', FORWARD_TARGET: ' ' })).toThrow(
      /FORWARD_TARGET must be set/,
    );
    const config = serviceConfigFromEnv({ NODE_ENV: 'production', SECRETS_KEY: KEY, REPORTS_DOMAIN: 'Reports.Example.com.', FORWARD_TARGET: '192.0.2.80' });
    expect(config).toMatchObject({ reportsDomain: 'reports.example.com', forwardTarget: '192.0.2.80' });
  });

  it('outside production the development defaults serve, so npm start needs no setting', () => {
    expect(serviceConfigFromEnv({})).toMatchObject({ reportsDomain: 'reports.localhost', forwardTarget: '127.0.0.1' });
  });

  it('npm start with NODE_ENV=production and no FORWARD_TARGET exits non-zero naming it, and REPORTS_DOMAIN likewise', async () => {
    const noForward = await startMain({ NODE_ENV: 'production', SECRETS_KEY: KEY, REPORTS_DOMAIN: 'reports.example.com' });
    expect(noForward.code).not.toBe(0);
    expect(noForward.output).toContain('FORWARD_TARGET must be set when NODE_ENV=production');
    expect(noForward.output).not.toContain('REPORTS_DOMAIN must be set');
    const noReports = await startMain({ NODE_ENV: 'production', SECRETS_KEY: KEY, FORWARD_TARGET: '192.0.2.80' });
    expect(noReports.code).not.toBe(0);
    expect(noReports.output).toContain('REPORTS_DOMAIN must be set when NODE_ENV=production');
  }, 60_000);
});
