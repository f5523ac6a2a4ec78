import { createServer, type Server } from 'node:http';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findDomainForward } from '../db/domain-forwarding.js';
import { log } from '../observability/log.js';

/** The Host header's name: lower-cased, without a port or a trailing dot; null when it is not a plausible host name. */
function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const name = header.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name) && name.length <= 253 ? name : null;
}

/**
 * The forwarding listener (FORWARD_PORT): each ordered domain's apex A record points at
 * FORWARD_TARGET, where this answers. A request whose Host is an ordered domain with a forward_to
 * is answered 301 to https://<forward_to> with the same path and query; any other Host is a 404
 * with a sentence. Plain HTTP only: a certificate for every customer domain is not built (docs/mailboxes.md).
 */
export async function serveForwarding(db: Kysely<Database>, port: number, host: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const name = hostName(req.headers.host);
    const notHere = (detail: string) =>
      res.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ code: 'not_found', detail }));
    if (name === null) return void notHere('Send a Host header naming a domain; this listener forwards the web addresses of ordered domains.');
    findDomainForward(db, name).then(
      (found) => {
        if (!found) return void notHere(`${name} is not a domain on any order here, so there is nothing to forward it to.`);
        if (!found.forward_to) return void notHere(`${name} has no forward_to set; raise a forwarding change request to choose where it goes.`);
        const location = `https://${found.forward_to}${req.url?.startsWith('/') ? req.url : '/'}`;
        res.writeHead(301, { location, 'cache-control': 'max-age=3600', 'content-type': 'text/plain; charset=utf-8' }).end(`Moved to ${location}\n`);
      },
      (error: Error) => {
        log('warn', 'forwarding lookup failed', { host: name, reason: error.message });
        res
          .writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' })
          .end(JSON.stringify({ code: 'unavailable', detail: 'The forwarding table could not be read; try again shortly.' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
