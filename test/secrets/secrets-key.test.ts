import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { spawnServer } from '../support/spawn-server.js';

/** SECRETS_KEY and the AES-256-GCM sealing of secrets kept at rest (DNS connection secrets, DKIM private keys). */
describe('sealing secrets', () => {
  const key = randomBytes(32);

  it('opens what it sealed, with the same key and purpose only; a changed byte does not open', () => {
    const sealed = encryptSecret(key, 'tsig secret', 'dns-connection:1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('tsig secret');
    expect(encryptSecret(key, 'tsig secret', 'dns-connection:1')).not.toBe(sealed); // a fresh IV each time
    expect(decryptSecret(key, sealed, 'dns-connection:1')).toBe('tsig secret');
    expect(() => decryptSecret(randomBytes(32), sealed, 'dns-connection:1')).toThrow(/did not open/);
    expect(() => decryptSecret(key, sealed, 'dns-connection:2')).toThrow(/did not open/);
    const [v, iv, body, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0]! ^= 1;
    expect(() => decryptSecret(key, [v, iv, flipped.toString('base64url'), tag].join('.'), 'dns-connection:1')).toThrow(/did not open/);
    expect(() => decryptSecret(key, 'plain text', 'dns-connection:1')).toThrow(/Not a sealed secret/);
  });

  it('SECRETS_KEY is read as hex or base64 of 32 bytes; anything else stops the start with a sentence', () => {
    const secretsKeyOf = (value: string) => serviceConfigFromEnv({ SECRETS_KEY: value }).secretsKey;
    expect(secretsKeyOf(key.toString('hex')).equals(key)).toBe(true);
    expect(secretsKeyOf(key.toString('base64')).equals(key)).toBe(true);
    expect(() => secretsKeyOf(randomBytes(16).toString('base64'))).toThrow(/SECRETS_KEY must be 32 bytes/);
    expect(() => secretsKeyOf('correct horse battery staple')).toThrow(/openssl rand -base64 32/);
    // Outside production a fixed development key serves, so `npm start` needs no setting.
    expect(serviceConfigFromEnv({}).secretsKey).toHaveLength(32);
  });

  it('in production the service refuses to start without SECRETS_KEY, before opening the database', async () => {
    // The way an operator starts it (server/main.ts as a process), on a data folder that does not exist
    // yet: the embedded database would make it on opening, so its absence shows the refusal came first.
    const dataDir = join(tmpdir(), `secrets-key-${process.pid}-${randomBytes(4).toString('hex')}`);
    // A server that starts anyway is stopped again, so the failure leaves no process behind.
    const outcome = await spawnServer({ env: { NODE_ENV: 'production', DATA_DIR: dataDir } }).then(
      async (server) => `listening (exit ${await server.stop()})`,
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/exited with 1 before listening[\s\S]*Could not start: SECRETS_KEY must be set when NODE_ENV=production/);
    expect(existsSync(dataDir)).toBe(false);
    // A process loads the whole service before it reads its settings: seconds of CPU on a busy machine.
  }, 60_000);
});
