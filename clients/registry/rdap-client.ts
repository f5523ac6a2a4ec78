import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

import type { RdapGet, RdapResponse } from './rdap-lookup.js';

/** Registries' RDAP services are few and asked often: their connections are kept (unref'd while idle). */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 32 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 32 }),
} as const;
/** An RDAP domain object is a few KB; a larger answer is not one. */
const MAX_BODY_BYTES = 1024 * 1024;
/** RFC 7480 section 5.2: servers may redirect (bootstrap aggregators, registry moves); a few hops at most. */
const MAX_REDIRECTS = 5;

class RdapTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * The RDAP GET the service's checks use (handed to them in the check context): Accept
 * application/rdap+json, redirects followed, timeoutMs for the whole exchange, the body capped.
 * Through node:http(s) with kept connections rather than fetch: the same GET took 0.30 ms of CPU
 * against fetch's 0.85 ms, and every grade makes one (fetch's machinery was a tenth of a grade's CPU).
 */
export const getRdapJson: RdapGet = (url, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  return follow(new URL(url), deadline, timeoutMs, 0);
};

async function follow(url: URL, deadline: number, timeoutMs: number, hops: number): Promise<RdapResponse> {
  const { status, location, body } = await getOnce(url, deadline, timeoutMs);
  if (status >= 300 && status < 400 && location) {
    if (hops >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`a redirect to ${next.protocol} is not followed`);
    return follow(next, deadline, timeoutMs, hops + 1);
  }
  return { status, body: status === 200 ? JSON.parse(body) : null };
}

function getOnce(url: URL, deadline: number, timeoutMs: number): Promise<{ status: number; location: string | undefined; body: string }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new Error(`${url.protocol} is not http or https`));
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const request = send(
      url,
      { agent: secure ? agents['https:'] : agents['http:'], headers: { accept: 'application/rdap+json, application/json' } },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        // Only a 200's body is read; any other is drained so the connection can be kept.
        if (status !== 200) {
          response.resume();
          response.on('end', () => resolve({ status, location, body: '' }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) request.destroy(new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, location, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    const timer = setTimeout(() => request.destroy(new RdapTimeoutError(`no answer within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now()));
    request.on('error', reject);
    request.on('close', () => clearTimeout(timer));
    request.end();
  });
}
