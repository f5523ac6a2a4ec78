import type { OperationRow } from '../operations/operation-table.js';
import { openApiDocument, type OpenApiDocument } from '../rest/openapi.js';
import { jsonResponse } from '../operations/json-response.js';
import { docsPage } from './docs-page.js';

/**
 * /openapi.json and /docs of one listener. Both come from one document, generated on first use from
 * the listener's operation-table rows (the table does not change while the process runs).
 */
export function createDocsRoutes(rows: readonly OperationRow[], listener: 'api' | 'public', baseUrl: string) {
  let document: OpenApiDocument | undefined;
  let page: string | undefined;
  const current = () => (document ??= openApiDocument(rows, listener, baseUrl));

  return function serveDocs(request: Request, path: string): Response | null {
    if (path !== '/openapi.json' && path !== '/docs') return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return jsonResponse(405, { detail: `Use GET on ${path}.`, code: 'method_not_allowed' }, { allow: 'GET, HEAD' });
    }
    if (path === '/openapi.json') return jsonResponse(200, current(), { 'cache-control': 'public, max-age=300' });
    page ??= docsPage(current());
    return new Response(request.method === 'HEAD' ? null : page, {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=300',
        // The page is self-contained: inline styles, no script, no external asset.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
      },
    });
  };
}
