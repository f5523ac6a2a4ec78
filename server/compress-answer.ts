import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

/** Answers shorter than this go as they are: the gzip framing would eat most of the gain. */
export const COMPRESS_MIN_BYTES = 1024;
/** From this size an answer's gzip form is kept (by its SHA-1), so GraphiQL's 9 MB page is compressed once, at the best level. */
const KEEP_FROM_BYTES = 256 * 1024;
const KEEP_AT_MOST = 4;

/** Text answers: JSON, HTML, JavaScript, CSS, SVG, zone files. Never an event stream, which must flow as written. */
const TEXT_TYPE = /^(text\/(?!event-stream)|application\/(json|javascript|xml|[\w.-]+\+json|[\w.-]+\+xml)\b|image\/svg\+xml)/i;

const kept = new Map<string, Buffer>();

/** Whether Accept-Encoding takes gzip (RFC 9110 section 12.5.3: `gzip`, `x-gzip` or `*`, and not with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let star = false;
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return allowed;
    if (coding.trim() === '*') star = allowed;
  }
  return star;
}

/**
 * The gzip form of an answer's body when it should be sent compressed: a text type, at least 1 KB,
 * not already encoded, to a caller that takes gzip; else null. Small answers are compressed at a
 * fast level off the event loop; large ones once at the best level and kept.
 */
export async function gzipAnswer(payload: string | Buffer, headers: Headers, acceptEncoding: string | undefined): Promise<Buffer | null> {
  // Judged short without a copy by its UTF-16 length (a few multi-byte answers just over 1 KB stay plain).
  if (payload.length < COMPRESS_MIN_BYTES || !compressible(headers) || !acceptsGzip(acceptEncoding)) return null;
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (body.length < COMPRESS_MIN_BYTES) return null;
  if (body.length < KEEP_FROM_BYTES) return gzip(body, { level: 4 });
  const key = createHash('sha1').update(body).digest('base64');
  let packed = kept.get(key);
  if (!packed) {
    packed = await gzip(body, { level: constants.Z_BEST_COMPRESSION });
    const oldest = kept.keys().next();
    if (kept.size >= KEEP_AT_MOST && !oldest.done) kept.delete(oldest.value);
    kept.set(key, packed);
  }
  return packed;
}

/** Whether an answer of this type may be compressed for some caller, so caches must key on Accept-Encoding. */
export function compressible(headers: Headers): boolean {
  return !headers.has('content-encoding') && TEXT_TYPE.test(headers.get('content-type') ?? '');
}
