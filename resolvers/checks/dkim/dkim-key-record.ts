import { decodeDkimPublicKey, type DkimKeyType } from './dkim-public-key.js';
import { parseTagList } from './dkim-tag-list.js';

/** A parsed DKIM key record (RFC 6376 section 3.6.1; ed25519 from RFC 8463). */
export interface DkimKeyRecord {
  /** Always "DKIM1" (the default when v= is absent). */
  readonly v: 'DKIM1';
  /** h=: acceptable hash algorithms, as written; empty means all. */
  readonly h: readonly string[];
  readonly k: DkimKeyType;
  /** n=: notes for people. */
  readonly n: string;
  /** p= with all whitespace removed; empty means the key was revoked. */
  readonly p: string;
  /** s=: service types; default ["*"]. */
  readonly s: readonly string[];
  /** t=: flags ("y" testing, "s" no subdomains in i=). */
  readonly t: readonly string[];
  /** Size of the public key (RSA modulus, 256 for ed25519); null for a revoked key. */
  readonly bits: number | null;
}

export type DkimKeyRecordError = 'parse' | 'missing-field' | 'version-first' | 'duplicate-tag' | 'bad-public-key' | 'unknown-algorithm' | 'bad-version';

export type DkimKeyRecordResult =
  | { readonly ok: true; readonly record: DkimKeyRecord }
  | {
      readonly ok: false;
      /** False when the text is not a DKIM key record at all (empty, or a v= other than DKIM1). */
      readonly isDkim: boolean;
      readonly error: DkimKeyRecordError;
      readonly message: string;
    };

const list = (value: string | undefined): string[] =>
  value === undefined
    ? []
    : value
        .split(':')
        .map((item) => item.trim())
        .filter((item) => item !== '');

/** Whether the text claims to be something else than a DKIM1 key record, read before strict parsing. */
function looksLikeDkim(text: string): boolean {
  if (text.trim() === '') return false;
  const version = /^[ \t\r\n]*v[ \t\r\n]*=([^;]*)/.exec(text);
  return version === null || version[1]!.trim() === 'DKIM1';
}

/**
 * Parses a DKIM key record strictly. Checks, in this order: tag-list syntax, duplicate tags,
 * v= first and equal to "DKIM1" (case-sensitive, section 3.6.1), p= present, k= known, p= decodable.
 * Unknown tags are ignored as section 3.2 requires (so the RFC 4871 g= tag, removed by RFC 6376,
 * no longer makes a record invalid).
 */
export function parseDkimKeyRecord(text: string): DkimKeyRecordResult {
  const isDkim = looksLikeDkim(text);
  const fail = (error: DkimKeyRecordError, message: string): DkimKeyRecordResult => ({ ok: false, isDkim, error, message });
  const parsed = parseTagList(text);
  if (!parsed.ok) return fail(parsed.error, parsed.message);
  const { tags, order } = parsed;

  const version = tags.get('v');
  if (version !== undefined && order[0] !== 'v') {
    return fail('version-first', 'The v= tag must be the first tag of the record; move "v=DKIM1" to the front.');
  }
  if (version !== undefined && version !== 'DKIM1') {
    return fail('bad-version', `v=${version} is not a DKIM key record: the only version is "DKIM1" (upper case).`);
  }
  const p = tags.get('p');
  if (p === undefined) return fail('missing-field', 'The record has no p= tag (the public key); publish the key your mail provider gave you.');

  const kValue = tags.get('k') ?? 'rsa';
  if (kValue !== 'rsa' && kValue !== 'ed25519') {
    return fail('unknown-algorithm', `k=${kValue} is not a known key type: use k=rsa or k=ed25519.`);
  }
  const key = p.replace(/[ \t\r\n]+/g, '');
  let bits: number | null = null;
  if (key !== '') {
    const decoded = decodeDkimPublicKey(kValue, key);
    if (!decoded.ok) return fail('bad-public-key', decoded.message);
    bits = decoded.bits;
  }
  const s = list(tags.get('s'));
  return {
    ok: true,
    record: {
      v: 'DKIM1',
      h: list(tags.get('h')),
      k: kValue,
      n: tags.get('n') ?? '',
      p: key,
      s: tags.has('s') ? s : ['*'],
      t: list(tags.get('t')),
      bits,
    },
  };
}
