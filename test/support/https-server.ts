import https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { AddressInfo } from 'node:net';

/** What one URL answers. */
export interface TestRoute {
  readonly status?: number;
  readonly body?: string | Buffer;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sets Location (and status 301 unless `status` is given). */
  readonly redirect?: string;
  /** Wait this long before answering (timeouts). */
  readonly delayMs?: number;
}

export interface TestServerCertificate {
  readonly hosts: readonly string[];
  readonly certPem: string;
  readonly keyPem: string;
}

export interface TestHttpsServerOptions {
  /** The certificate sent to a client is the one whose hosts hold the SNI name; otherwise the first. */
  readonly certificates: readonly TestServerCertificate[];
  /** Keyed by "https://host/path" (no port, no query); an unknown URL answers 404. */
  readonly routes: Readonly<Record<string, TestRoute>>;
}

export interface TestHttpsServer {
  readonly port: number;
  /** Every request received: SNI name, Host header without port, path. */
  readonly requests: { servername: string | null; host: string; path: string }[];
  setRoutes(routes: Readonly<Record<string, TestRoute>>): void;
  close(): Promise<void>;
}

/**
 * A local HTTPS server on 127.0.0.1 that serves different answers per host name, with certificates
 * from test/support/test-ca.ts. Checks reach it because the test DNS server points the names at
 * 127.0.0.1 and the fetcher runs with allowPrivate and httpsPort set to this port.
 */
export async function startTestHttpsServer(options: TestHttpsServerOptions): Promise<TestHttpsServer> {
  let routes = options.routes;
  const requests: TestHttpsServer['requests'] = [];
  const contexts = options.certificates.map((c) => ({ hosts: c.hosts, context: createSecureContext({ cert: c.certPem, key: c.keyPem }) }));
  const first = options.certificates[0];
  if (!first) throw new Error('startTestHttpsServer needs at least one certificate.');

  const pick = (servername: string): SecureContext | undefined => contexts.find((c) => c.hosts.includes(servername.toLowerCase()))?.context;

  const server = https.createServer(
    {
      cert: first.certPem,
      key: first.keyPem,
      SNICallback: (servername, callback) => callback(null, pick(servername) ?? contexts[0]!.context),
    },
    (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const servername = (req.socket as { servername?: string | false }).servername || null;
      requests.push({ servername, host, path });
      const route = routes[`https://${host}${path}`];
      const answer = () => {
        if (res.destroyed) return;
        if (!route) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        const headers: Record<string, string> = { ...(route.contentType ? { 'content-type': route.contentType } : {}), ...route.headers };
        if (route.redirect) headers.location = route.redirect;
        res.writeHead(route.status ?? (route.redirect ? 301 : 200), headers).end(route.body ?? '');
      };
      if (route?.delayMs) setTimeout(answer, route.delayMs);
      else answer();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    setRoutes(next) {
      routes = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
