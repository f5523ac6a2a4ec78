import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** Where the command line client is downloaded from, on {api_url}. */
export const CLI_PATH = '/v1/cli';

let cached: { body: Uint8Array<ArrayBuffer>; etag: string } | undefined;

function cliFile(): { body: Uint8Array<ArrayBuffer>; etag: string } {
  if (!cached) {
    const body = new Uint8Array(readFileSync(fileURLToPath(new URL('../cli/svc.py', import.meta.url))));
    cached = { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
  }
  return cached;
}

/**
 * GET {api_url}/v1/cli: the one-file Python client, byte for byte as cli/svc.py. No key is needed
 * (our decision): it is a public program holding no secret, and a person needs it before they have
 * set a key up. It is served as text/x-python so a browser shows it and `curl -o svc.py` saves it;
 * an ETag lets a script refresh its copy cheaply.
 */
export function serveCli(request: Request, requestId: string): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(
      JSON.stringify({ detail: `Use GET on ${CLI_PATH} to download the command line client.`, code: 'method_not_allowed', request_id: requestId }),
      {
        status: 405,
        headers: { 'content-type': 'application/json; charset=utf-8', allow: 'GET, HEAD' },
      },
    );
  }
  const { body, etag } = cliFile();
  const headers = {
    'content-type': 'text/x-python; charset=utf-8',
    'content-disposition': 'inline; filename="svc.py"',
    'cache-control': 'public, max-age=300',
    etag,
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: { ...headers, 'content-length': String(body.length) } });
}
