import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The client address as check_host() sees it. */
export interface SpfIp {
  readonly family: 4 | 6;
  /** 4 or 16 octets. */
  readonly bytes: readonly number[];
  /** Readable form: dotted quad, or RFC 5952 text for IPv6 (the %{c} macro). */
  readonly text: string;
}

/**
 * Parses the connecting address; null when it is not an IP address. RFC 7208 5 (item 9.2 of the
 * conformance suite): an IPv4-mapped IPv6 address is treated as the IPv4 address it carries.
 */
export function parseSpfIp(raw: string): SpfIp | null {
  const text = raw.trim();
  if (isIP(text) === 0) return null;
  const parsed = ipaddr.process(text);
  if (parsed instanceof ipaddr.IPv4) {
    const bytes = parsed.toByteArray();
    return { family: 4, bytes, text: bytes.join('.') };
  }
  return { family: 6, bytes: parsed.toByteArray(), text: parsed.toRFC5952String() };
}

/** True when the first `prefix` bits of two addresses of the same family agree. */
export function ipInNetwork(ip: SpfIp, network: readonly number[], prefix: number): boolean {
  if (network.length !== ip.bytes.length) return false;
  let bits = prefix;
  for (let i = 0; i < network.length && bits > 0; i += 1) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((ip.bytes[i] ?? 0) & mask) !== ((network[i] ?? 0) & mask)) return false;
    bits -= 8;
  }
  return true;
}

/** The address as a byte array, for comparing with A/AAAA answers; null if it is not one. */
export function addressBytes(text: string): readonly number[] | null {
  // Answers are mostly dotted quads: read those directly rather than through ipaddr.js.
  const v4 = dottedQuadBytes(text);
  if (v4) return v4;
  const parsed = parseSpfIp(text);
  return parsed ? parsed.bytes : null;
}

/** The four octets of a plain dotted quad ("192.0.2.1", no leading zeros), or null. */
function dottedQuadBytes(text: string): number[] | null {
  const bytes: number[] = [];
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 46;
    if (code === 46) {
      if (digits === 0 || bytes.length === 4) return null;
      bytes.push(value);
      value = 0;
      digits = 0;
    } else if (code >= 48 && code <= 57) {
      if (digits > 0 && value === 0) return null;
      value = value * 10 + (code - 48);
      digits += 1;
      if (value > 255) return null;
    } else {
      return null;
    }
  }
  return bytes.length === 4 ? bytes : null;
}

/**
 * The "dot-format" of RFC 7208 7.3 used by %{i}: the dotted quad for IPv4, and for IPv6 the 32
 * nibbles separated by dots. Nibbles are written in upper case, as the openspf suite expects
 * (DNS names compare case-insensitively, so lookups are unaffected).
 */
export function ipDotFormat(ip: SpfIp): string {
  if (ip.family === 4) return ip.bytes.join('.');
  return ip.bytes
    .flatMap((b) => [(b >> 4).toString(16), (b & 0xf).toString(16)])
    .join('.')
    .toUpperCase();
}

/** The reverse-mapping name a PTR query uses (RFC 7208 5.5). */
export function reverseName(ip: SpfIp): string {
  return ip.family === 4 ? `${[...ip.bytes].reverse().join('.')}.in-addr.arpa` : `${ipDotFormat(ip).split('.').reverse().join('.').toLowerCase()}.ip6.arpa`;
}
