import { isIP } from 'node:net';

/** One resolver to ask: the address and port a query is sent to. */
export interface DnsServerAddress {
  readonly host: string;
  readonly port: number;
  readonly family: 4 | 6;
}

/**
 * Reads "ip", "ip:port", "[ipv6]:port" or a bare IPv6 address (port 53). Configuration is read at
 * start-up, so a bad entry throws a plain Error there rather than failing every request later.
 */
export function parseDnsServerAddress(raw: string): DnsServerAddress {
  const text = raw.trim();
  let host = text;
  let port = 53;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? '';
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (text.split(':').length === 2) {
    const [h, p] = text.split(':');
    host = h ?? '';
    port = Number(p);
  }
  const family = isIP(host);
  if ((family !== 4 && family !== 6) || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`DNS server "${raw}" is not an IP address with an optional port, such as 127.0.0.1:53 or [::1]:53.`);
  }
  return { host, port, family };
}
