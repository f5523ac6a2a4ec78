import { createHmac, timingSafeEqual } from 'node:crypto';
import { encodeName, lastRecordOffset, readName } from './dns-wire.js';

/**
 * TSIG (RFC 8945): a shared-secret HMAC over a DNS message, which is how an RFC 2136 server knows
 * an update comes from the key holder. We sign every message we send (queries too, so a server that
 * answers only keyed queries answers ours) and verify every answer's signature before believing it.
 *
 * Signing (RFC 8945 section 4.3.3): HMAC over the message as sent without the TSIG record, followed by
 * the "TSIG variables": key name and algorithm name in canonical wire form (lower case, uncompressed),
 * class ANY, TTL 0, time signed (48 bits), fudge, error, other data. An answer's HMAC (section 5.3)
 * covers the request's MAC (with its length) first, then the answer without its TSIG record, with
 * ARCOUNT one less and the original id.
 */
export type TsigAlgorithm = 'hmac-sha256' | 'hmac-sha512';

export interface TsigKey {
  readonly name: string;
  readonly algorithm: TsigAlgorithm;
  readonly secret: Buffer;
}

const HASHES: Record<TsigAlgorithm, string> = { 'hmac-sha256': 'sha256', 'hmac-sha512': 'sha512' };
const TSIG_TYPE = 250;
const CLASS_ANY = 255;
/** Seconds of clock difference allowed either way (the RFC's recommended 300). */
const FUDGE = 300;

/** TSIG error codes (RFC 8945 section 5.2 and the IANA registry) to their names. */
const TSIG_ERRORS: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' };

export function tsigErrorName(code: number): string {
  return TSIG_ERRORS[code] ?? `TSIG error ${code}`;
}

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

function variables(key: TsigKey, time: number, fudge: number, error: number, other: Buffer): Buffer {
  return Buffer.concat([
    encodeName(key.name),
    u16(CLASS_ANY),
    Buffer.alloc(4),
    encodeName(key.algorithm),
    u48(time),
    u16(fudge),
    u16(error),
    u16(other.length),
    other,
  ]);
}

function hmac(key: TsigKey, ...parts: Buffer[]): Buffer {
  const h = createHmac(HASHES[key.algorithm], key.secret);
  for (const part of parts) h.update(part);
  return h.digest();
}

/** The message with a TSIG record appended (ARCOUNT raised by one), and the MAC the answer's signature covers. */
export function signMessage(message: Buffer, key: TsigKey, now: Date = new Date()): { readonly signed: Buffer; readonly mac: Buffer } {
  const time = Math.floor(now.getTime() / 1000);
  const mac = hmac(key, message, variables(key, time, FUDGE, 0, Buffer.alloc(0)));
  const rdata = Buffer.concat([encodeName(key.algorithm), u48(time), u16(FUDGE), u16(mac.length), mac, u16(message.readUInt16BE(0)), u16(0), u16(0)]);
  const record = Buffer.concat([encodeName(key.name), u16(TSIG_TYPE), u16(CLASS_ANY), Buffer.alloc(4), u16(rdata.length), rdata]);
  const signed = Buffer.concat([message, record]);
  signed.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return { signed, mac };
}

export type TsigVerdict =
  | { readonly ok: true }
  /** `error` is the server's TSIG error (BADKEY, BADSIG, BADTIME) when it sent one; `reason` says what is wrong. */
  | { readonly ok: false; readonly error: string | null; readonly reason: string };

/** Whether an answer carries a valid signature by the same key over the request's MAC. */
export function verifyAnswer(answer: Buffer, requestMac: Buffer, key: TsigKey, now: Date = new Date()): TsigVerdict {
  const start = answer.length >= 12 && answer.readUInt16BE(10) > 0 ? lastRecordOffset(answer) : null;
  if (start === null) return { ok: false, error: null, reason: 'the answer carries no TSIG signature' };
  const { name: owner, next } = readName(answer, start);
  let offset = next;
  if (answer.readUInt16BE(offset) !== TSIG_TYPE) return { ok: false, error: null, reason: 'the answer carries no TSIG signature' };
  offset += 10; // type, class, TTL, RDLENGTH
  const { name: algorithm, next: afterAlgorithm } = readName(answer, offset);
  offset = afterAlgorithm;
  const time = answer.readUIntBE(offset, 6);
  const fudge = answer.readUInt16BE(offset + 6);
  const macSize = answer.readUInt16BE(offset + 8);
  offset += 10;
  const mac = answer.subarray(offset, offset + macSize);
  offset += macSize;
  const originalId = answer.readUInt16BE(offset);
  const error = answer.readUInt16BE(offset + 2);
  const otherLength = answer.readUInt16BE(offset + 4);
  const other = answer.subarray(offset + 6, offset + 6 + otherLength);
  if (error !== 0) return { ok: false, error: tsigErrorName(error), reason: `the server answered ${tsigErrorName(error)}` };
  if (owner.toLowerCase() !== key.name.toLowerCase().replace(/\.$/, '') || algorithm.toLowerCase() !== key.algorithm)
    return { ok: false, error: null, reason: 'the answer is signed with another key' };
  const unsigned = Buffer.from(answer.subarray(0, start));
  unsigned.writeUInt16BE(originalId, 0);
  unsigned.writeUInt16BE(unsigned.readUInt16BE(10) - 1, 10);
  const expected = hmac(key, u16(requestMac.length), requestMac, unsigned, variables(key, time, fudge, error, other));
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected))
    return { ok: false, error: null, reason: "the answer's signature does not match the key" };
  if (Math.abs(Math.floor(now.getTime() / 1000) - time) > fudge) return { ok: false, error: null, reason: "the answer's signature is outside its time window" };
  return { ok: true };
}
