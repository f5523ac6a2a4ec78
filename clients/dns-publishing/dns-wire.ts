import ipaddr from 'ipaddr.js';
import type { DnsRecord } from './dns-publisher.js';

/**
 * The few wire forms an RFC 2136 update needs that dns-packet's typed API does not offer: a record
 * of class NONE (delete this one record, RFC 2136 section 2.5.4), names in canonical form for TSIG,
 * and walking a message's records by their length fields.
 */
export const CLASS_IN = 1;
export const CLASS_NONE = 254;
const TYPES: Record<string, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28 };

export function typeCode(type: string): number {
  const code = TYPES[type.toUpperCase()];
  if (code === undefined) throw new Error(`No wire code for record type ${type}.`);
  return code;
}

/** A name in wire form, uncompressed and in lower case (the canonical form TSIG signs). */
export function encodeName(name: string): Buffer {
  const labels = name
    .toLowerCase()
    .replace(/\.$/, '')
    .split('.')
    .filter((l) => l !== '');
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l, 'utf8')])), Buffer.from([0])]);
}

/** The name at `offset` (following compression pointers) and the offset just past it in the message. */
export function readName(message: Buffer, offset: number): { readonly name: string; readonly next: number } {
  const labels: string[] = [];
  let at = offset;
  let next: number | null = null;
  for (let hops = 0; hops < 128; hops++) {
    const length = message.readUInt8(at);
    if (length === 0) return { name: labels.join('.'), next: next ?? at + 1 };
    if ((length & 0xc0) === 0xc0) {
      next ??= at + 2;
      at = message.readUInt16BE(at) & 0x3fff;
      continue;
    }
    labels.push(message.toString('utf8', at + 1, at + 1 + length));
    at += 1 + length;
  }
  throw new Error('A DNS name with too many compression pointers.');
}

/** TXT character-strings of at most 255 bytes each (RFC 1035 section 3.3.14), split on byte boundaries. */
export function txtChunks(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) chunks.push(bytes.subarray(i, i + 255));
  return chunks.length ? chunks : [Buffer.alloc(0)];
}

/** One resource record in wire form. `chunks` keeps a TXT's strings as the server split them, so a delete matches its bytes. */
export function encodeRecord(record: DnsRecord, klass: number, ttl: number, chunks?: readonly Buffer[]): Buffer {
  const rdata = encodeData(record, chunks);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(typeCode(record.type), 0);
  fixed.writeUInt16BE(klass, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(record.name), fixed, rdata]);
}

function encodeData(record: DnsRecord, chunks?: readonly Buffer[]): Buffer {
  switch (record.type.toUpperCase()) {
    case 'A':
    case 'AAAA':
      return Buffer.from(ipaddr.parse(record.value).toByteArray());
    case 'CNAME':
    case 'NS':
      return encodeName(record.value);
    case 'MX': {
      const preference = Buffer.alloc(2);
      preference.writeUInt16BE(record.priority ?? 0);
      return Buffer.concat([preference, encodeName(record.value)]);
    }
    case 'TXT':
      return Buffer.concat((chunks ?? txtChunks(record.value)).flatMap((c) => [Buffer.from([c.length]), c]));
    default:
      throw new Error(`Publishing ${record.type} records is not supported.`);
  }
}

/** A DNS message header: id, flags, then the four section counts. */
export function encodeHeader(id: number, flags: number, counts: readonly [number, number, number, number]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(flags, 2);
  counts.forEach((n, i) => header.writeUInt16BE(n, 4 + 2 * i));
  return header;
}

/** A question (or an update's zone section): name, type, class IN. */
export function encodeQuestion(name: string, type: string): Buffer {
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(typeCode(type), 0);
  tail.writeUInt16BE(CLASS_IN, 2);
  return Buffer.concat([encodeName(name), tail]);
}

/** Where the last record of a message starts, by walking the sections' length fields; null without any record. */
export function lastRecordOffset(message: Buffer): number | null {
  if (message.length < 12) return null;
  const questions = message.readUInt16BE(4);
  const records = message.readUInt16BE(6) + message.readUInt16BE(8) + message.readUInt16BE(10);
  if (records === 0) return null;
  let offset = 12;
  for (let i = 0; i < questions; i++) offset = readName(message, offset).next + 4;
  for (let i = 0; i < records - 1; i++) {
    offset = readName(message, offset).next;
    offset += 10 + message.readUInt16BE(offset + 8);
  }
  return offset;
}
