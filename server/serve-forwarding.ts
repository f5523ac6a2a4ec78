import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Server as NetServer } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { ForwardTlsConfig } from '../config/settings.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findDomainForward } from '../db/domain-forwarding.js';
import { findAcmeChallenge } from '../db/forwarding-certificates.js';
import { log } from '../observability/log.js';
import { forwardingContexts } from './forwarding-contexts.js';

/** The Host header's name: lower-cased, without a port or a trailing dot; null when it is not a plausible host name. */
function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const name = header.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name) && name.length <= 253 ? name : null;
}

/** An ACME HTTP-01 challenge's path (RFC 8555 8.3): the token is base64url. */
const CHALLENGE_PATH = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]{1,256})$/;

/**
 * Answers an ACME authority's HTTP-01 validation from the acme_challenges table, whichever
 * instance's job asked for the certificate (resolvers/forwarding/obtain-certificate.ts).
 */
function answerChallenge(db: Kysely<Database>, name: string, token: string, res: ServerResponse): void {
  findAcmeChallenge(db, name, token).then(
    (keyAuthorization) => {
      if (keyAuthorization === undefined)
        return void res.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(
          JSON.stringify({
            code: 'not_found',
            detail: `No ACME challenge with this token is waiting for ${name}; only the authority's validation of an order in flight is answered here.`,
          }),
        );
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(keyAuthorization);
    },
    (error: Error) => {
      log('warn', 'acme challenge lookup failed', { host: name, reason: error.message });
      res
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' })
        .end(JSON.stringify({ code: 'unavailable', detail: 'The challenge table could not be read; try again shortly.' }));
    },
  );
}

/** Answers one forwarding request: the same on HTTP and HTTPS. */
function forwardingHandler(db: Kysely<Database>) {
  return function answerForwarding(req: IncomingMessage, res: ServerResponse): void {
    const name = hostName(req.headers.host);
    const notHere = (detail: string) =>
      res.writeHead(404, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ code: 'not_found', detail }));
    if (name === null) return void notHere('Send a Host header naming a domain; this listener forwards the web addresses of ordered domains.');
    const challenge = CHALLENGE_PATH.exec(req.url ?? '');
    if (challenge?.[1] !== undefined) return answerChallenge(db, name, challenge[1], res);
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
  };
}

async function listen<S extends NetServer>(server: S, port: number, host: string): Promise<{ server: S; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}

/**
 * The forwarding listener (FORWARD_PORT): each ordered domain's apex A record points at
 * FORWARD_TARGET, where this answers. A request whose Host is an ordered domain with a forward_to
 * is answered 301 to https://<forward_to> with the same path and query; any other Host is a 404
 * with a sentence. An ACME authority's HTTP-01 validation is answered here too, before forwarding.
 * HTTPS is served beside it by serveForwardingTls.
 */
export function serveForwarding(db: Kysely<Database>, port: number, host: string): Promise<{ server: HttpServer; port: number }> {
  return listen(createServer(forwardingHandler(db)), port, host);
}

/** Reads one of the FORWARD_TLS_ files, or stops the start with a sentence naming the variable. */
function readPem(path: string, variable: string, what: string, block: RegExp): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (error) {
    throw new Error(`${variable} (${path}) cannot be read: ${messageOf(error)}.`);
  }
  if (!block.test(pem.toString('latin1'))) throw new Error(`${variable} (${path}) holds no PEM ${what}; give the ${what} in PEM ("-----BEGIN ...").`);
  return pem;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The forwarding listener's HTTPS port and the operator's certificate and key, read and checked to belong together (null: none given). */
export interface ForwardingTls {
  readonly port: number;
  readonly operator: { readonly cert: Buffer; readonly key: Buffer } | null;
}

/**
 * Reads FORWARD_TLS_CERT and FORWARD_TLS_KEY, when given, at start, before anything opens: an
 * unreadable file, one without PEM, or a key that is not the certificate's stops the start with a
 * sentence naming the variable. Read once; a renewed operator certificate needs a restart (the ACME
 * certificates do not: they are read from the database).
 */
export function loadForwardingTls(tls: ForwardTlsConfig): ForwardingTls {
  if (tls.certFile === null || tls.keyFile === null) return { port: tls.port, operator: null };
  const cert = readPem(tls.certFile, 'FORWARD_TLS_CERT', 'certificate', /-----BEGIN CERTIFICATE-----/);
  const key = readPem(tls.keyFile, 'FORWARD_TLS_KEY', 'private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new Error(
      `FORWARD_TLS_CERT (${tls.certFile}) and FORWARD_TLS_KEY (${tls.keyFile}) are not a certificate and its key (${messageOf(error)}); check that the key is the certificate's.`,
    );
  }
  return { port: tls.port, operator: { cert, key } };
}

/**
 * The forwarding listener over HTTPS (FORWARD_TLS_PORT): the same answers as on HTTP. Each
 * handshake's server name (SNI) picks the domain's own certificate obtained over ACME
 * (forwarding-contexts.ts); a name without one, or a client that sends none, gets the operator's
 * certificate (FORWARD_TLS_CERT) where there is one, else the handshake fails: a domain whose
 * certificate is still pending is reached over plain HTTP only.
 */
export function serveForwardingTls(db: Kysely<Database>, tls: ForwardingTls, secretsKey: Buffer, host: string): Promise<{ server: HttpsServer; port: number }> {
  const contexts = forwardingContexts(db, secretsKey, tls.operator);
  const server = createHttpsServer(
    {
      ...(tls.operator && { cert: tls.operator.cert, key: tls.operator.key }),
      minVersion: 'TLSv1.2',
      SNICallback: (servername, done) => {
        contexts.contextFor(servername).then(
          (context) => done(null, context ?? undefined),
          (error: Error) => {
            log('warn', 'forwarding certificate could not be loaded', { host: servername, reason: error.message });
            done(null, undefined);
          },
        );
      },
    },
    forwardingHandler(db),
  );
  return listen(server, tls.port, host);
}
