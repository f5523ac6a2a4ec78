import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { LookupFunction } from 'node:net';
import type { HttpsFetcher, HttpsFetchResult } from './https-fetcher.js';
import type { DnsLookup } from '../dns/dns-types.js';
import { resolveFetchAddresses, type FetchAddress } from './resolve-fetch-addresses.js';

export interface HttpsFetcherConfig {
  /** Lifts the public-address rule (tests reach 127.0.0.1 this way). Never set it in production. */
  readonly allowPrivate: boolean;
  /** Port used when a URL names none; 443 in production, the local fixture server's port in tests. */
  readonly httpsPort: number;
  /**
   * Extra trusted CA certificates (PEM), added to Node's bundled roots. Tests pass their own CA here;
   * production trusts Node's roots plus NODE_EXTRA_CA_CERTS, which Node reads once at start.
   */
  readonly ca?: string | Buffer;
}

/**
 * A bounded HTTPS GET for URLs published by strangers (MTA-STS policies, BIMI logos and marks).
 *
 * - HTTPS only, with a certificate valid for the URL's host name (RFC 8461 section 3.3 for MTA-STS).
 * - The host is resolved through the checks' DnsLookup and every address vetted (see
 *   resolveFetchAddresses); the socket then connects only to those vetted addresses through a fixed
 *   `lookup`, so there is no second resolution an attacker could answer differently (DNS rebinding).
 * - Redirects are never followed: RFC 8461 section 3.3 forbids it for policies, and a 3xx is handed
 *   back as-is so the caller can say where it pointed.
 * - One deadline covers resolution, connection and body; a body past maxBytes is abandoned.
 * - The request's signal (dns.signal: the caller hung up or the request's deadline passed) abandons
 *   the fetch at once, whatever stage it is in: the socket is destroyed, not left to finish.
 */
export function createHttpsFetcher(dns: DnsLookup, config: HttpsFetcherConfig): HttpsFetcher {
  const ca = config.ca === undefined ? undefined : [...rootCertificates, config.ca.toString()];
  return {
    withLookup: (other) => createHttpsFetcher(other, config),
    async get(url, { maxBytes, timeoutMs }) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return { ok: false, code: 'invalid_url', reason: `"${url}" is not a valid URL.` };
      }
      if (parsed.protocol !== 'https:') {
        return { ok: false, code: 'not_https', reason: `${url} is not an HTTPS URL; only HTTPS is fetched.` };
      }
      if (parsed.username || parsed.password) {
        return { ok: false, code: 'invalid_url', reason: `${url} carries credentials; such URLs are not fetched.` };
      }
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      // Port 443 only (CHECKS_HTTPS_PORT in tests): a published URL must not turn us into a port
      // scanner. The URL parser already drops an explicit default port (":443", ":0443").
      if (parsed.port && Number(parsed.port) !== config.httpsPort) {
        return {
          ok: false,
          code: 'port_refused',
          reason: `${url} names port ${parsed.port}; only the standard HTTPS port 443 is fetched, so publish the URL without a port.`,
        };
      }
      const port = config.httpsPort;
      // Until the TLS handshake completes, every failure (refused, unreachable, silent) reads the same.
      const progress = { secured: false };

      const cancelled: HttpsFetchResult = {
        ok: false,
        code: 'cancelled',
        reason: `${url} was not fetched: the request was cancelled or ran past its deadline.`,
      };
      const requestSignal = dns.signal;
      if (requestSignal?.aborted) return cancelled;
      let timer: NodeJS.Timeout | undefined;
      let onRequestAbort: (() => void) | undefined;
      const controller = new AbortController();
      const deadline = new Promise<HttpsFetchResult>((resolve) => {
        timer = setTimeout(() => {
          controller.abort();
          resolve(progress.secured ? { ok: false, code: 'timeout', reason: `${url} did not answer within ${timeoutMs} ms.` } : unreachable(host));
        }, timeoutMs);
        onRequestAbort = () => {
          controller.abort();
          resolve(cancelled);
        };
        requestSignal?.addEventListener('abort', onRequestAbort, { once: true });
      });
      const work = (async (): Promise<HttpsFetchResult> => {
        const resolved = await resolveFetchAddresses(dns, host, config.allowPrivate);
        if (!resolved.ok) return resolved;
        if (controller.signal.aborted) return { ok: false, code: 'timeout', reason: `${url} did not answer within ${timeoutMs} ms.` };
        return request(parsed, host, port, resolved.addresses, maxBytes, ca, controller.signal, progress);
      })();
      try {
        return await Promise.race([work, deadline]);
      } finally {
        clearTimeout(timer);
        if (onRequestAbort) requestSignal?.removeEventListener('abort', onRequestAbort);
        controller.abort();
      }
    },
  };
}

function request(
  url: URL,
  host: string,
  port: number,
  addresses: readonly FetchAddress[],
  maxBytes: number,
  ca: string[] | undefined,
  signal: AbortSignal,
  progress: { secured: boolean },
): Promise<HttpsFetchResult> {
  // Hands Node the addresses we already vetted instead of asking the system resolver again.
  const fixedLookup: LookupFunction = (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all) {
      (callback as unknown as (err: null, list: FetchAddress[]) => void)(null, [...list]);
    } else {
      const first = list[0]!;
      callback(null, first.address, first.family);
    }
  };
  return new Promise((resolve) => {
    const req = https.request({
      host,
      port,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: '*/*', 'user-agent': 'deliverability-checks/1 (+https)', connection: 'close' },
      lookup: fixedLookup,
      agent: false,
      ca,
      rejectUnauthorized: true,
      signal,
    });
    req.on('socket', (socket) =>
      socket.once('secureConnect', () => {
        progress.secured = true;
      }),
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) return; // the deadline already answered
      resolve(describeError(host, error));
    });
    req.on('response', (res) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        resolve(tooLarge(url.href, maxBytes, `declares ${declared} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          resolve(tooLarge(url.href, maxBytes, 'sent more'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ ok: true, status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks), url: url.href }));
      res.on('error', (error: NodeJS.ErrnoException) => {
        if (!signal.aborted) resolve(describeError(host, error));
      });
    });
    req.end();
  });
}

function tooLarge(url: string, maxBytes: number, what: string): HttpsFetchResult {
  return { ok: false, code: 'too_large', reason: `${url} ${what} than the ${maxBytes}-byte limit; it was not read further.` };
}

function describeError(host: string, error: NodeJS.ErrnoException): HttpsFetchResult {
  const code = error.code ?? '';
  if (/CERT|SIGNATURE|ISSUER|ALTNAME|SELF_SIGNED/.test(code)) {
    return { ok: false, code: 'certificate_invalid', reason: `The TLS certificate of ${host} is not valid for it (${code}: ${error.message}).` };
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code.startsWith('ERR_SSL') || code.startsWith('EPROTO')) {
    return { ok: false, code: 'tls_failed', reason: `The TLS handshake with ${host} failed (${code}).` };
  }
  return unreachable(host);
}

/**
 * One sentence for every way a connection can fail before TLS: ECONNREFUSED, EHOSTUNREACH, a reset
 * or a silent address must not tell a caller apart which ports of a host are closed or filtered.
 */
function unreachable(host: string): HttpsFetchResult {
  return { ok: false, code: 'connection_failed', reason: `Could not connect to ${host} over HTTPS; check that it accepts HTTPS connections on port 443.` };
}
