import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (DKIM private keys, and any credential the service keeps): AES-256-GCM under the
 * SECRETS_KEY setting, a fresh 12-byte nonce per secret. The stored text is
 * `v1.<nonce>.<tag>.<ciphertext>` (base64url), so a later key rotation can tell versions apart.
 * A wrong key or a changed byte fails the tag check: nothing half-decrypted comes out.
 */
const VERSION = 'v1';

export function sealSecret(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openSecret(key: Buffer, sealed: string): string {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== VERSION || !nonce || !tag || body === undefined) throw new Error('The sealed secret is not in the v1 format.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
