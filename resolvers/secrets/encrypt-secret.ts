import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets we must use again later (DNS connection credentials, DKIM private keys) are sealed with
 * AES-256-GCM under SECRETS_KEY before they reach the database, so a leaked dump or backup holds no
 * usable credential. The text stored is `v1.<iv>.<ciphertext>.<tag>` (base64url parts): the version
 * leaves room for a new key or algorithm later.
 *
 * `purpose` is bound as additional authenticated data: a value sealed for one row ("dns-connection:12")
 * does not open as another's, so ciphertexts cannot be swapped between rows or accounts.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function encryptSecret(key: Buffer, plaintext: string, purpose: string): string {
  if (key.length !== 32) throw new Error('encryptSecret needs a 32-byte key (SECRETS_KEY).');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens what encryptSecret sealed with the same key and purpose; throws on any other key, purpose or a changed byte. */
export function decryptSecret(key: Buffer, sealed: string, purpose: string): string {
  const [version, iv, body, tag, ...more] = sealed.split('.');
  if (version !== VERSION || iv === undefined || body === undefined || tag === undefined || more.length > 0)
    throw new Error('Not a sealed secret this service wrote (expected v1.<iv>.<ciphertext>.<tag>).');
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error('A sealed secret with a malformed iv or tag.');
  const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(purpose, 'utf8'));
  decipher.setAuthTag(tagBytes);
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // No detail from OpenSSL: it says nothing useful, and the cause is always one of these.
    throw new Error('A sealed secret did not open: SECRETS_KEY differs from the one it was sealed with, or the stored value was changed.');
  }
}
