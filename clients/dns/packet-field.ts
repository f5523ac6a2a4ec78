import type { DecodedPacket } from 'dns-packet';

/**
 * A field of a decoded packet or record, read by name: dns-packet's types are unions whose variants
 * do not all declare the field (a record's `class`, `ttl` and `data`, a packet's `rcode`), so the
 * reader narrows what it gets instead of asserting its shape. Undefined when the field is absent.
 */
export function packetField(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
}

/** The reply's RCODE as dns-packet names it (NOERROR when it gives none). */
export function replyCode(packet: DecodedPacket): string {
  const rcode = packetField(packet, 'rcode');
  return typeof rcode === 'string' ? rcode : 'NOERROR';
}
