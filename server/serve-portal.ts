import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { errorResponse } from '../operations/json-response.js';
import { ApiError } from '../operations/api-error.js';

/** Where scripts/build-portal.ts puts the built portal. */
export const PORTAL_DIST = fileURLToPath(new URL('../web/portal/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page's own script and styles only; inline style attributes are allowed (charts size bars with
 * them), inline scripts are not. No framing, so no clickjacking of the order button.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly type: string;
}

/**
 * The portal at /portal/: files under /portal/assets/ (hashed names, cached for a year), and
 * index.html for every other /portal/ path so the app's own routes load on a reload. Files are read
 * once and kept in memory with their gzip form. Returns null for paths outside /portal.
 */
export function createPortalRoute(dist = PORTAL_DIST): (request: Request, requestId: string, path?: string) => Response | null {
  // Only files of the build are kept, so asking for made-up names cannot grow it.
  const cache = new Map<string, Asset>();
  const load = (file: string): Asset | null => {
    const cached = cache.get(file);
    if (cached) return cached;
    const path = join(dist, file);
    if (!path.startsWith(dist) || !statSync(path, { throwIfNoEntry: false })?.isFile()) return null;
    const body = readFileSync(path);
    const asset = { body, gzip: gzipSync(body, { level: 9 }), type: TYPES[extname(file)] ?? 'application/octet-stream' };
    cache.set(file, asset);
    return asset;
  };
  return (request, requestId, pathname) => {
    const path = pathname ?? new URL(request.url).pathname;
    if (path !== '/portal' && !path.startsWith('/portal/')) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(
        new ApiError(405, 'method_not_allowed', "The portal's pages are read with GET; its data goes through POST /graphql and /auth/."),
        requestId,
      );
    }
    if (path === '/portal') return new Response(null, { status: 308, headers: { location: `/portal/${new URL(request.url).search}` } });
    const inner = normalize(path.slice('/portal/'.length));
    const isAsset = inner.startsWith('assets/') && !inner.includes('..');
    const asset = isAsset ? load(inner) : load('index.html');
    if (!asset) {
      if (isAsset)
        return errorResponse(new ApiError(404, 'not_found', `There is no portal file ${path}; reload /portal/ to get the current build.`), requestId);
      return errorResponse(
        new ApiError(
          503,
          'portal_not_built',
          'The portal is not built on this instance; run `npm run portal:build` (npm install and npm start do it) and reload.',
        ),
        requestId,
      );
    }
    const gzip = (request.headers.get('accept-encoding') ?? '').includes('gzip');
    const body = gzip ? asset.gzip : asset.body;
    const headers: Record<string, string> = {
      'content-type': asset.type,
      'content-length': String(body.length),
      'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      vary: 'accept-encoding',
    };
    if (gzip) headers['content-encoding'] = 'gzip';
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
