import { createPublicKey } from 'node:crypto';

export type DkimKeyType = 'rsa' | 'ed25519';

export type DecodedPublicKey = { readonly ok: true; readonly keyType: DkimKeyType; readonly bits: number } | { readonly ok: false; readonly message: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 section 4); the 32 key bytes follow.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Keys seen lately, by type and p= text: parsing a key (createPublicKey) was a few percent of a grade's
 * CPU, and the same keys (a provider's, a busy domain's) come back request after request. The record
 * is still looked up live each time; only the decoding of text already seen is kept. Bounded: the
 * least recently used entry goes first, and a p= value longer than any real key is not kept.
 */
const KEPT_KEYS = 1000;
const LONGEST_KEPT = 2048;
const decodedKeys = new Map<string, DecodedPublicKey>();

/** The decoded-key cache's size, and a way to empty it (the bench measures without it). */
export const decodedKeyCache = {
  get size(): number {
    return decodedKeys.size;
  },
  clear(): void {
    decodedKeys.clear();
  },
};

/** Decodes the p= value (whitespace already removed, not empty) as a key of type k=, once per text seen lately. */
export function decodeDkimPublicKey(keyType: DkimKeyType, base64: string): DecodedPublicKey {
  if (base64.length > LONGEST_KEPT) return decodeKey(keyType, base64);
  const cacheKey = `${keyType}:${base64}`;
  const known = decodedKeys.get(cacheKey);
  if (known) {
    // Map keeps insertion order: moving the entry to the end makes the first the least recently used.
    decodedKeys.delete(cacheKey);
    decodedKeys.set(cacheKey, known);
    return known;
  }
  const decoded = decodeKey(keyType, base64);
  decodedKeys.set(cacheKey, decoded);
  if (decodedKeys.size > KEPT_KEYS) {
    const oldest = decodedKeys.keys().next();
    if (!oldest.done) decodedKeys.delete(oldest.value);
  }
  return decoded;
}

/**
 * Decodes the p= value as a key of type k=.
 *
 * RSA (RFC 6376 section 3.6.1): the DER public key; in practice every signer publishes a
 * SubjectPublicKeyInfo, and a bare PKCS#1 RSAPublicKey is also accepted, as the major verifiers do.
 * Ed25519 (RFC 8463 section 4.2): the raw 32-byte public key, NOT wrapped in SubjectPublicKeyInfo.
 */
function decodeKey(keyType: DkimKeyType, base64: string): DecodedPublicKey {
  if (!BASE64.test(base64)) {
    return { ok: false, message: 'The p= value is not valid base64; publish the public key exactly as your provider gave it.' };
  }
  const der = Buffer.from(base64, 'base64');
  if (keyType === 'ed25519') {
    if (der.length !== 32) {
      const hint =
        der.length === 44 && der.subarray(0, 12).equals(ED25519_SPKI_PREFIX)
          ? ' It holds a SubjectPublicKeyInfo; publish only the last 32 bytes (RFC 8463 section 4.2).'
          : '';
      return { ok: false, message: `An ed25519 p= value must be the raw 32-byte public key, but it decodes to ${der.length} bytes.${hint}` };
    }
    try {
      createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, der]), format: 'der', type: 'spki' });
    } catch {
      return { ok: false, message: 'The p= value is not a usable ed25519 public key.' };
    }
    return { ok: true, keyType, bits: 256 };
  }
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type });
      if (key.asymmetricKeyType !== 'rsa') {
        return {
          ok: false,
          message: `The record says k=rsa (the default when k= is absent) but p= holds a key of type ${key.asymmetricKeyType ?? 'unknown'}; add the right k= tag or publish the RSA key.`,
        };
      }
      const bits = key.asymmetricKeyDetails?.modulusLength;
      if (bits === undefined) break;
      return { ok: true, keyType, bits };
    } catch {
      // try the next encoding
    }
  }
  return {
    ok: false,
    message:
      'The p= value does not decode to an RSA public key (expected a DER SubjectPublicKeyInfo in base64); the key may be truncated, for example by a DNS panel that cut a long TXT value.',
  };
}
