import { createHmac, timingSafeEqual } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket } from 'dns-packet';
import { encodeName, lastRecordOffset, readName } from '../../clients/dns-publishing/dns-wire.js';
import type { ZoneRecord } from './dns-server.js';

/**
 * The server side of RFC 2136 dynamic update signed with TSIG (RFC 8945), for the test DNS server
 * and `npm run dev-dns`: a request's signature checked against the one key, the answer signed over
 * the request's MAC, and an UPDATE's prerequisite-free changes applied to the served records, all or
 * nothing. Enough to take what our publisher sends (clients/dns-publishing/rfc2136-publisher.ts),
 * and what `nsupdate -y` sends for the same changes.
 */
export interface TsigServerKey {
  readonly name: string;
  readonly algorithm: 'hmac-sha256' | 'hmac-sha512';
  /** The secret's bytes (base64-decoded). */
  readonly secret: Buffer;
}

const HASHES = { 'hmac-sha256': 'sha256', 'hmac-sha512': 'sha512' } as const;
const TSIG_TYPE = 250;
const CLASS_ANY = 255;
export const OPCODE_UPDATE = 5;
export const RCODE_NOTAUTH = 9;
export const RCODE_NOTZONE = 10;
export const RCODE_REFUSED = 5;
const BADSIG = 16;
const BADKEY = 17;
const BADTIME = 18;

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u48(n: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUIntBE(n, 0, 6);
  return b;
}

function tsigVariables(keyName: string, algorithm: string, time: number, fudge: number, error: number): Buffer {
  return Buffer.concat([encodeName(keyName), u16(CLASS_ANY), Buffer.alloc(4), encodeName(algorithm), u48(time), u16(fudge), u16(error), u16(0)]);
}

export type SignedRequest =
  /** No TSIG record: a plain query (answered as always) or an unsigned update (refused). */
  | { readonly kind: 'unsigned' }
  /** Signed by the key: `message` is the request without its TSIG record, `mac` what the answer's signature covers. */
  | { readonly kind: 'signed'; readonly message: Buffer; readonly mac: Buffer }
  /** Signed, but not verifiably by our key: answer NOTAUTH with this TSIG error. */
  | { readonly kind: 'refused'; readonly error: number; readonly keyName: string; readonly algorithm: string; readonly message: Buffer };

/** Whether the request carries a TSIG record, and if so whether it verifies with `key`. */
export function readSignedRequest(request: Buffer, key: TsigServerKey, now = new Date()): SignedRequest {
  const start = lastRecordOffset(request);
  if (start === null || request.readUInt16BE(10) === 0) return { kind: 'unsigned' };
  const { name: keyName, next } = readName(request, start);
  if (request.readUInt16BE(next) !== TSIG_TYPE) return { kind: 'unsigned' };
  let offset = next + 10;
  const { name: algorithm, next: afterAlgorithm } = readName(request, offset);
  offset = afterAlgorithm;
  const time = request.readUIntBE(offset, 6);
  const fudge = request.readUInt16BE(offset + 6);
  const macSize = request.readUInt16BE(offset + 8);
  const mac = request.subarray(offset + 10, offset + 10 + macSize);
  const originalId = request.readUInt16BE(offset + 10 + macSize);
  const message = Buffer.from(request.subarray(0, start));
  message.writeUInt16BE(originalId, 0);
  message.writeUInt16BE(message.readUInt16BE(10) - 1, 10);
  if (keyName.toLowerCase() !== key.name.toLowerCase() || algorithm.toLowerCase() !== key.algorithm)
    return { kind: 'refused', error: BADKEY, keyName, algorithm, message };
  const expected = createHmac(HASHES[key.algorithm], key.secret)
    .update(message)
    .update(tsigVariables(keyName, algorithm, time, fudge, 0))
    .digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return { kind: 'refused', error: BADSIG, keyName, algorithm, message };
  if (Math.abs(Math.floor(now.getTime() / 1000) - time) > fudge) return { kind: 'refused', error: BADTIME, keyName, algorithm, message };
  return { kind: 'signed', message, mac };
}

/**
 * The answer with a TSIG record appended: signed with the key over the request's MAC (RFC 8945
 * 5.3), or, for a refused request, unsigned with the error (an empty MAC, as servers send BADKEY and
 * BADSIG).
 */
export function signAnswer(
  answer: Buffer,
  key: TsigServerKey,
  requestMac: Buffer | null,
  error = 0,
  refused?: { keyName: string; algorithm: string },
  now = new Date(),
): Buffer {
  const keyName = refused?.keyName ?? key.name;
  const algorithm = refused?.algorithm ?? key.algorithm;
  const time = Math.floor(now.getTime() / 1000);
  const fudge = 300;
  const mac =
    requestMac === null
      ? Buffer.alloc(0)
      : createHmac(HASHES[key.algorithm], key.secret)
          .update(u16(requestMac.length))
          .update(requestMac)
          .update(answer)
          .update(tsigVariables(keyName, algorithm, time, fudge, error))
          .digest();
  const rdata = Buffer.concat([encodeName(algorithm), u48(time), u16(fudge), u16(mac.length), mac, u16(answer.readUInt16BE(0)), u16(error), u16(0)]);
  const record = Buffer.concat([encodeName(keyName), u16(TSIG_TYPE), u16(CLASS_ANY), Buffer.alloc(4), u16(rdata.length), rdata]);
  const signed = Buffer.concat([answer, record]);
  signed.writeUInt16BE(answer.readUInt16BE(10) + 1, 10);
  return signed;
}

function bare(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function within(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

/** An update record as a fixture record; null for a type the fixture does not hold. */
function toZoneRecord(record: Answer): ZoneRecord | null {
  const name = bare(record.name);
  const ttl = ('ttl' in record ? record.ttl : undefined) ?? 300;
  switch (record.type) {
    case 'TXT': {
      const data = (Array.isArray(record.data) ? record.data : [record.data]).map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8')));
      return { name, type: 'TXT', data: [data.join('')], ttl };
    }
    case 'MX':
      return { name, type: 'MX', data: { preference: record.data.preference ?? 0, exchange: bare(record.data.exchange) }, ttl };
    case 'A':
    case 'AAAA':
      return { name, type: record.type, data: record.data, ttl };
    case 'CNAME':
    case 'NS':
      return { name, type: record.type, data: bare(record.data), ttl };
    default:
      return null;
  }
}

function sameData(a: ZoneRecord, b: ZoneRecord): boolean {
  if (bare(a.name) !== bare(b.name) || a.type !== b.type) return false;
  if (a.type === 'TXT' && b.type === 'TXT') return a.data.join('') === b.data.join('');
  if (a.type === 'MX' && b.type === 'MX') return a.data.preference === b.data.preference && bare(a.data.exchange) === bare(b.data.exchange);
  return String(a.data).toLowerCase().replace(/\.$/, '') === String(b.data).toLowerCase().replace(/\.$/, '');
}

/**
 * An UPDATE's changes applied to `records` (RFC 2136 section 3.4): class IN adds a record, NONE
 * deletes one record, ANY deletes the RRset (or every record at the name for type ANY). The zone
 * must be one the records hold an SOA for; every change must be inside it. No prerequisites are
 * checked (none are sent). Answers the new records, or the RCODE refusing the whole update.
 */
export function applyUpdate(records: readonly ZoneRecord[], update: DecodedPacket): ({ rcode: 0 } & { records: ZoneRecord[] }) | { rcode: number } {
  const zone = bare(update.questions?.[0]?.name ?? '');
  if (!records.some((r) => r.type === 'SOA' && bare(r.name) === zone)) return { rcode: RCODE_NOTAUTH };
  if ((update.answers ?? []).length > 0) return { rcode: RCODE_REFUSED };
  let next = [...records];
  for (const change of update.authorities ?? []) {
    const name = bare(change.name);
    if (!within(name, zone)) return { rcode: RCODE_NOTZONE };
    const klass = (change as { class?: string }).class;
    if (klass === 'ANY') {
      next = next.filter((r) => !(bare(r.name) === name && (String(change.type) === 'ANY' || r.type === change.type) && r.type !== 'SOA'));
      continue;
    }
    const record = toZoneRecord(change);
    if (!record) return { rcode: RCODE_REFUSED };
    // dns-packet names class 254 (NONE, RFC 2136 section 2.5.4: delete this record) UNKNOWN_254.
    if (klass === 'NONE' || klass === 'UNKNOWN_254') next = next.filter((r) => !sameData(r, record));
    else if (!next.some((r) => sameData(r, record))) next.push(record);
  }
  return { rcode: 0, records: next };
}

/** The answer to an update: the header and zone section echoed, with the RCODE. */
export function updateAnswer(update: DecodedPacket, rcode: number): Buffer {
  return dnsPacket.encode({ type: 'response', id: update.id ?? 0, flags: (OPCODE_UPDATE << 11) | rcode, questions: update.questions ?? [] });
}
