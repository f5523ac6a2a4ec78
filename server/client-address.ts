import { isIP } from 'node:net';

/**
 * The address a request comes from, for the public rate limit. The socket's peer, unless that peer is
 * one of the operator's proxies (TRUSTED_PROXIES): then the nearest address in X-Forwarded-For that is
 * not itself a trusted proxy. Addresses a client writes into the header are never trusted beyond the
 * proxies the operator named, so a caller cannot pick its own allowance.
 */
export function clientAddressOf(peer: string, forwardedFor: string | undefined, trustedProxies: ReadonlySet<string>): string {
  const address = normalize(peer);
  if (!forwardedFor || !trustedProxies.has(address)) return address;
  const hops = forwardedFor
    .split(',')
    .map((h) => normalize(h.trim()))
    .filter((h) => isIP(h) !== 0);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i]!;
    if (!trustedProxies.has(hop)) return hop;
  }
  return hops[0] ?? address;
}

/** ::ffff:192.0.2.1 and 192.0.2.1 are one client. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** TRUSTED_PROXIES: comma-separated IP addresses of the operator's load balancers or proxies. */
export function trustedProxySet(list: readonly string[]): ReadonlySet<string> {
  return new Set(list.map(normalize));
}
