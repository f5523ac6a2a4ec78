import { DomainError } from '../domain-error.js';
import { normalizeDomain } from './normalize-domain.js';

/**
 * Bulk limits, per call. A sender cleaning a list works in thousands: 5,000 addresses is a typical
 * export chunk of a sequencer, and 1,000 domains covers the distinct domains of such a chunk. Beyond
 * these a call holds one request open for too long (each distinct domain costs one to three round
 * trips under the DNS_CONCURRENCY cap), so the caller splits the list instead.
 * URIBL's 100 is fixed by SPEC 4.1.
 */
export const VERIFY_EMAIL_LIMIT = 5000;
export const SEGMENT_ESP_LIMIT = 1000;
export const NAMESERVERS_LIMIT = 1000;
export const URIBL_LIMIT = 100;
/** The longest item a bulk list takes: a domain name is at most 253 characters, an address 254. */
export const BULK_ITEM_MAX_CHARS = 320;

/**
 * A bulk parameter as a list: a comma-separated string (the GET form) or an array of strings (the
 * POST body, tools.json and MCP). Items are trimmed, empty items dropped, and duplicates kept once
 * in first-seen order, so the same item is never answered twice. Over `limit` distinct items is a
 * 400 naming the limit.
 */
export function parseBulkInput(raw: unknown, param: string, limit: number, example: string): string[] {
  let items: unknown[];
  if (typeof raw === 'string') items = raw.split(',');
  else if (Array.isArray(raw)) items = raw.flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]));
  else items = [];
  const strings = items.filter((item): item is string => typeof item === 'string');
  if (strings.length !== items.length) {
    throw new DomainError('invalid_parameter', `"${param}" must be a comma-separated string or a list of strings, such as "${example}".`);
  }
  const seen = new Set<string>();
  for (const item of strings) {
    const trimmed = item.trim();
    // Refused whole and never repeated: an answer listing each item would send a megabyte back.
    if (trimmed.length > BULK_ITEM_MAX_CHARS) {
      throw new DomainError(
        'invalid_parameter',
        `"${param}" holds a value of ${trimmed.length} characters; each is at most ${BULK_ITEM_MAX_CHARS}, such as "${example.split(',')[0] || 'example.com'}".`,
      );
    }
    if (trimmed !== '') seen.add(trimmed);
  }
  if (seen.size === 0) {
    throw new DomainError('missing_parameter', `Pass the parameter "${param}": one or more values separated by commas, such as "${example}".`);
  }
  if (seen.size > limit) {
    throw new DomainError(
      'too_many_items',
      `"${param}" holds ${seen.size} distinct values; the limit is ${limit} per call. Split the list into calls of at most ${limit}.`,
      { limit },
    );
  }
  return [...seen];
}

/** One item of a bulk domain list: normalised, or refused with the sentence normalizeDomain gave. */
export type BulkDomain =
  | { readonly ok: true; readonly input: string; readonly domain: string; readonly unicode: string | null }
  | { readonly ok: false; readonly input: string; readonly reason: string };

/**
 * A bulk domain parameter, each item normalised. One malformed item does not fail a list of
 * thousands: it comes back as its own refused item. Items that normalise to the same name
 * (`Example.com`, `example.com.`) are answered once.
 */
export function parseBulkDomains(raw: unknown, param: string, limit: number): BulkDomain[] {
  const items = parseBulkInput(raw, param, limit, 'example.com,example.org');
  const seen = new Set<string>();
  const out: BulkDomain[] = [];
  for (const input of items) {
    try {
      const { domain, unicode } = normalizeDomain(input, param);
      if (seen.has(domain)) continue;
      seen.add(domain);
      out.push({ ok: true, input, domain, unicode });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      out.push({ ok: false, input, reason: error.detail });
    }
  }
  return out;
}
