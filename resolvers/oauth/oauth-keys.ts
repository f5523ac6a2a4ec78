import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findOAuthKey, insertOAuthKeyIfAbsent } from '../../db/oauth-keys.js';
import { decryptSecret, encryptSecret } from '../secrets/encrypt-secret.js';

export interface OAuthSecrets {
  /** The authorization server's signing keys (private JWKs; the public halves are served at its jwks_uri). */
  readonly jwks: { keys: Record<string, unknown>[] };
  /** Keys signing the authorization server's cookies (the first signs, all verify). */
  readonly cookieKeys: string[];
}

/**
 * The authorization server's keys: made at the first start, sealed with SECRETS_KEY and kept in
 * oauth_keys, so every instance and every restart signs with the same ones. Two instances starting
 * at once both make a set; the first stored wins and both read it back.
 */
export async function loadOAuthSecrets(db: Kysely<Database>, secretsKey: Buffer): Promise<OAuthSecrets> {
  const jwks = await loadOrMake(db, secretsKey, 'jwks', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return JSON.stringify({ keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' }] });
  });
  const cookies = await loadOrMake(db, secretsKey, 'cookies', () => JSON.stringify([randomBytes(32).toString('base64url')]));
  return { jwks: { keys: objectsIn(JSON.parse(jwks), 'keys') }, cookieKeys: stringsIn(JSON.parse(cookies)) };
}

async function loadOrMake(db: Kysely<Database>, secretsKey: Buffer, kind: string, make: () => string): Promise<string> {
  const purpose = oauthKeySealPurpose(kind);
  const found = await findOAuthKey(db, kind);
  if (found !== undefined) return decryptSecret(secretsKey, found, purpose);
  await insertOAuthKeyIfAbsent(db, kind, encryptSecret(secretsKey, make(), purpose));
  const stored = await findOAuthKey(db, kind);
  if (stored === undefined) throw new Error(`The authorization server's ${kind} could not be stored.`);
  return decryptSecret(secretsKey, stored, purpose);
}

/** What one of the authorization server's keys is sealed for (a key rotation re-seals under it too). */
export function oauthKeySealPurpose(kind: string): string {
  return `oauth-keys:${kind}`;
}

function objectsIn(value: unknown, key: string): Record<string, unknown>[] {
  const list: unknown = typeof value === 'object' && value !== null && key in value ? Reflect.get(value, key) : undefined;
  if (!Array.isArray(list)) throw new Error(`Stored oauth keys lack "${key}".`);
  return list.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

function stringsIn(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Error('Stored oauth cookie keys are not a list.');
  return value.filter((item): item is string => typeof item === 'string');
}
