import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestRdapServerOptions {
  /** TLDs the bootstrap file lists, all served by this server. */
  readonly tlds: readonly string[];
  /** Per lower-case domain: an RDAP domain object (200), or an HTTP status to answer with. */
  readonly domains: Readonly<Record<string, object | number>>;
  /** Milliseconds to wait before answering a domain query (timeouts). */
  readonly delayMs?: number;
}

export interface TestRdapServer {
  /** The RFC 9224 bootstrap file, for RDAP_BOOTSTRAP_URL. */
  readonly bootstrapUrl: string;
  /** Every path requested, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A local RDAP service (RFC 7480/9082/9083) and the IANA-style bootstrap file that points at it,
 * over plain HTTP on 127.0.0.1. Unknown domains are 404, as real registries answer.
 */
export async function startTestRdapServer(options: TestRdapServerOptions): Promise<TestRdapServer> {
  const requests: string[] = [];
  let base = '';
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/bootstrap/dns.json') {
      send(200, { version: '1.0', publication: '2026-01-01T00:00:00Z', services: [[options.tlds, [`${base}/rdap/`]]] });
      return;
    }
    const match = /^\/rdap\/domain\/([^/?]+)$/.exec(path);
    const domain = match ? decodeURIComponent(match[1] ?? '').toLowerCase() : '';
    const answer = options.domains[domain];
    const reply = (): void => {
      if (answer === undefined) send(404, { errorCode: 404, title: 'Not Found' });
      else if (typeof answer === 'number') send(answer, { errorCode: answer });
      else send(200, answer);
    };
    if (options.delayMs) setTimeout(reply, options.delayMs);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    bootstrapUrl: `${base}/bootstrap/dns.json`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An RDAP domain object as registries publish it (RFC 9083 section 5.3). */
export function rdapDomain(name: string, registrar: string, created: string, expires: string): object {
  return {
    objectClassName: 'domain',
    ldhName: name.toUpperCase(),
    events: [
      { eventAction: 'registration', eventDate: created },
      { eventAction: 'expiration', eventDate: expires },
      { eventAction: 'last update of RDAP database', eventDate: '2026-09-25T00:00:00Z' },
    ],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', registrar],
          ],
        ],
      },
    ],
  };
}
