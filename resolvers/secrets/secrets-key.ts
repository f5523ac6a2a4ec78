import { createHash } from 'node:crypto';

/**
 * SECRETS_KEY: the 32-byte AES-256-GCM key of encrypt-secret.ts, as base64 (44 characters) or hex
 * (64). Without it a development start uses a fixed key derived from a public phrase, which protects
 * nothing and says so in README; NODE_ENV=production refuses to start without one, since secrets
 * sealed under a public key are as good as plain text.
 */
export function secretsKeyFromEnv(env: NodeJS.ProcessEnv): Buffer {
  const raw = (env.SECRETS_KEY ?? '').trim();
  if (raw === '') {
    if (env.NODE_ENV === 'production')
      throw new Error('SECRETS_KEY must be set when NODE_ENV=production: 32 random bytes as base64 or hex (openssl rand -base64 32).');
    return DEVELOPMENT_SECRETS_KEY;
  }
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw) ? Buffer.from(raw, 'base64') : null;
  if (!key || key.length !== 32)
    throw new Error('SECRETS_KEY must be 32 bytes written as base64 (44 characters) or hex (64 characters); make one with openssl rand -base64 32.');
  return key;
}

/** Not a secret: only for development and tests, never accepted in production (above). */
const DEVELOPMENT_SECRETS_KEY = createHash('sha256').update('deliverability-service development SECRETS_KEY (not secret)').digest();
