import { jsonTooDeep, TOO_DEEP_DETAIL } from '../operations/parse-json-bounded.js';

/**
 * Input hygiene for every door, in one place (serve-http.ts runs it before any handler): a NUL
 * character, a lone UTF-16 surrogate or bytes that are not UTF-8 in the path, the query string or a
 * body's strings (JSON, or a urlencoded form) are refused with a 400 and a sentence. Without this
 * they reach PostgreSQL, which cannot store them, and the caller saw a 500.
 *
 * Answers the sentence to send, or null when the request is clean.
 */
export function badTextIn(rawUrl: string, body: Buffer | undefined, contentType: string | undefined): string | null {
  // Node hands the request target over byte for byte as latin1; percent-escapes are undone on bytes,
  // so %FF and a raw 0xFF are judged alike.
  const target = textOfBytes(percentDecode(Buffer.from(rawUrl, 'latin1')));
  if (target === null) return 'The URL holds bytes that are not valid UTF-8 (such as %FF or a raw byte above 0x7F); percent-encode text as UTF-8.';
  if (target.includes('\u0000')) return 'The URL holds a NUL character (%00); remove it.';
  const query = rawUrl.indexOf('?');
  if (query >= 0) {
    // GraphQL over GET carries variables and extensions as JSON in the query string.
    for (const [name, value] of new URLSearchParams(rawUrl.slice(query + 1))) {
      if (jsonTooDeep(value)) return TOO_DEEP_DETAIL;
      const inJson = /^\s*[[{]/.test(value) ? badStringInJson(value) : null;
      if (inJson) return `The query parameter "${name}" ${inJson}`;
    }
  }
  if (!body || body.length === 0) return null;
  const type = (contentType ?? '').toLowerCase();
  // Binary uploads (report files: gzip, zip, a message) are bytes, not text.
  if (type.includes('multipart/') || type.includes('octet-stream') || /gzip|zip|message\/rfc822/.test(type)) return null;
  if (type.includes('application/x-www-form-urlencoded')) {
    const form = textOfBytes(percentDecode(body));
    if (form === null) return 'The form body holds bytes that are not valid UTF-8; send it encoded as UTF-8.';
    return form.includes('\u0000') ? 'The form body holds a NUL character (%00); remove it.' : null;
  }
  const text = textOfBytes(body);
  if (text === null) return 'The body is not valid UTF-8; send JSON encoded as UTF-8.';
  // Checked before JSON.parse's reviver below, which walks by recursion too.
  if (jsonTooDeep(text)) return TOO_DEEP_DETAIL;
  const inJson = badStringInJson(text);
  return inJson ? `The body ${inJson}` : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function textOfBytes(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function percentDecode(bytes: Buffer): Buffer {
  if (!bytes.includes(0x25)) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (byte === undefined) break;
    const high = byte === 0x25 ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (low >= 0) {
      out[length++] = high * 16 + low;
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

/** Matched on UTF-16 code units (no u flag): a high surrogate not followed by a low one, or a low one alone. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A sentence's end naming the first bad string of a JSON text, or null (also when it is not JSON at all: the handler says so). */
function badStringInJson(text: string): string | null {
  let found: string | null = null;
  const judge = (value: string, where: string) => {
    if (found) return;
    if (value.includes('\u0000')) found = `holds a NUL character (\\u0000) in ${where}; remove it.`;
    else if (LONE_SURROGATE.test(value)) found = `holds a lone UTF-16 surrogate (such as \\ud800) in ${where}, which is not text; send whole characters.`;
  };
  try {
    JSON.parse(text, function (key, value: unknown) {
      if (key !== '') judge(key, `the name "${key.replace(/[\u0000\ud800-\udfff]/g, '?')}"`);
      if (typeof value === 'string') judge(value, key === '' ? 'a string' : `"${key.replace(/[\u0000\ud800-\udfff]/g, '?')}"`);
      return value;
    });
  } catch {
    return null;
  }
  return found;
}
