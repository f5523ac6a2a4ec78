/**
 * A minimal DER reader: enough to walk an X.509 certificate to the parts node:crypto's
 * X509Certificate does not expose (arbitrary extensions such as the RFC 3709 logotype, subject
 * attributes with private OIDs). Throws on anything that is not definite-length DER.
 */
export interface DerNode {
  /** The identifier octet (class, constructed bit and low tag number), e.g. 0x30 for SEQUENCE. */
  readonly tag: number;
  readonly constructed: boolean;
  /** The content octets. */
  readonly value: Buffer;
}

export function readDer(buffer: Buffer, offset = 0): { node: DerNode; end: number } {
  const tag = buffer[offset];
  if (tag === undefined) throw new Error('DER: unexpected end of data');
  // High tag numbers (0x1f) do not occur in the structures we read.
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not supported');
  let pos = offset + 1;
  const first = buffer[pos++];
  if (first === undefined) throw new Error('DER: missing length');
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: indefinite or oversized length');
    length = 0;
    for (let i = 0; i < count; i++) {
      const byte = buffer[pos++];
      if (byte === undefined) throw new Error('DER: truncated length');
      length = length * 256 + byte;
    }
  }
  const end = pos + length;
  if (end > buffer.length) throw new Error('DER: content runs past the end of the data');
  return { node: { tag, constructed: (tag & 0x20) !== 0, value: buffer.subarray(pos, end) }, end };
}

export function derChildren(node: DerNode): DerNode[] {
  const children: DerNode[] = [];
  let offset = 0;
  while (offset < node.value.length) {
    const { node: child, end } = readDer(node.value, offset);
    children.push(child);
    offset = end;
  }
  return children;
}

export function decodeOid(value: Buffer): string {
  const first = value[0] ?? 0;
  const parts = [Math.min(2, Math.floor(first / 40)), first - Math.min(2, Math.floor(first / 40)) * 40];
  let n = 0;
  for (const byte of value.subarray(1)) {
    n = n * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(n);
      n = 0;
    }
  }
  return parts.join('.');
}

/** The text of a directory string (UTF8String, PrintableString, IA5String, T61String, BMPString). */
export function decodeString(node: DerNode): string {
  // BMPString is UTF-16 big-endian; Node only decodes little-endian.
  if (node.tag === 0x1e) return node.value.length % 2 === 0 ? Buffer.from(node.value).swap16().toString('utf16le') : '';
  return node.value.toString(node.tag === 0x0c ? 'utf8' : 'latin1');
}

export const TAG = { OCTET_STRING: 0x04, OID: 0x06, SEQUENCE: 0x30, SET: 0x31, IA5_STRING: 0x16, BOOLEAN: 0x01 } as const;
