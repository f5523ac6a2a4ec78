import { connect } from 'node:net';
import type { RegistrationLookup } from './registration-record.js';

const MAX_WHOIS_BYTES = 256 * 1024;

/** One WHOIS question (RFC 3912): send the query and CRLF over TCP, read until the server closes. */
export function queryWhois(host: string, port: number, query: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`WHOIS server ${host}:${port} did not answer within ${timeoutMs} ms`)));
    socket.on('connect', () => socket.write(`${query}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_WHOIS_BYTES) socket.destroy(new Error(`WHOIS server ${host}:${port} sent more than ${MAX_WHOIS_BYTES} bytes`));
      else chunks.push(chunk);
    });
    socket.on('error', reject);
    socket.on('close', (hadError) => {
      if (!hadError) resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

const NOT_FOUND =
  /^(no match|not found|no entries found|no data found|no object found|domain not found|status:\s*(free|available)|% no such domain|the queried object does not exist)/im;

// Each value starts at its first non-blank character ([ \t]* then [^ \t\r\n], never two quantifiers
// that take the same characters: a WHOIS answer is a stranger's text).
const REGISTRAR = [
  /^[ \t]*registrar(?: name)?:[ \t]*([^ \t\r\n].*)$/im,
  /^[ \t]*sponsoring registrar:[ \t]*([^ \t\r\n].*)$/im,
  /^[ \t]*registrar:[ \t\r]*\n[ \t]*(?:name:[ \t]*)?([^ \t\r\n].*)$/im,
];
const CREATED = [
  /^[ \t]*(?:creation date|created(?: on)?|registered(?: on)?|registration (?:date|time)|domain registration date|record created)[^:\n]*:[ \t]*([^ \t\r\n].*)$/im,
];
const EXPIRES = [
  /^[ \t]*(?:registry expiry date|registrar registration expiration date|expiration date|expiry date|expires(?: on)?|expire|paid-till|renewal date|valid until|domain expiration date)[^:\n]*:[ \t]*([^ \t\r\n].*)$/im,
];

const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };

/** WHOIS dates come in many shapes: ISO 8601, 2026-01-02, 2026.01.02, 02.01.2026, 02/01/2026, 02-Jan-2026. */
export function parseWhoisDate(raw: string): string | null {
  const text = raw.trim();
  let m = /^(\d{4})[-./](\d{2})[-./](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  if (m) return utc(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), text);
  m = /^(\d{2})[./](\d{2})[./](\d{4})/.exec(text);
  if (m) return utc(+m[3]!, +m[2]! - 1, +m[1]!, 0, 0, 0, text);
  m = /^(\d{1,2})[- ]([a-z]{3})[a-z]*[- ](\d{4})/i.exec(text);
  if (m && MONTHS[m[2]!.toLowerCase()] !== undefined) return utc(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!, 0, 0, 0, text);
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, text: string): string | null {
  // A full ISO string keeps its own zone offset.
  if (/T\d{2}:\d{2}.*(Z|[+-]\d{2}:?\d{2})$/.test(text) && !Number.isNaN(Date.parse(text))) return new Date(Date.parse(text)).toISOString();
  const date = new Date(Date.UTC(y, mo, d, h, mi, s));
  return Number.isNaN(date.getTime()) || date.getUTCDate() !== d ? null : date.toISOString();
}

function first(patterns: readonly RegExp[], text: string): string | null {
  for (const pattern of patterns) {
    const value = pattern.exec(text)?.[1]?.trim();
    if (value) return value;
  }
  return null;
}

/** Reads the registrar, creation and expiry lines of a WHOIS answer; a "no match" answer is not_found. */
export function parseWhois(text: string, server: string): RegistrationLookup {
  if (NOT_FOUND.test(text)) return { kind: 'not_found', server };
  const created = first(CREATED, text);
  const expires = first(EXPIRES, text);
  const registrar = first(REGISTRAR, text);
  if (!created && !expires && !registrar) return { kind: 'failed', reason: `WHOIS server ${server} answered without registration data`, server };
  return { kind: 'found', registrar, created: created ? parseWhoisDate(created) : null, expires: expires ? parseWhoisDate(expires) : null, server };
}

/** IANA's referral for a TLD: the "whois:" line of whois.iana.org's answer, or null. */
export function whoisReferral(ianaAnswer: string): string | null {
  return /^whois:[ \t]*(\S+)/im.exec(ianaAnswer)?.[1] ?? null;
}
