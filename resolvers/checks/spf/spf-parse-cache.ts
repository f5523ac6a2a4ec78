import { parseSpfRecord } from './parse-spf-record.js';
import type { ParsedSpfRecord } from './parse-spf-record.js';

/**
 * Parsed records by their text. Parsing is a pure function of the text and a parsed record is never
 * changed, so records seen again (every include of a popular provider, on every check) are parsed
 * once. This caches no DNS answer: each check still looks every record up live; only the work of
 * reading the same text twice is saved. Bounded, oldest out first.
 */
const MAX_ENTRIES = 2000;
const cache = new Map<string, ParsedSpfRecord>();

export function parseSpfRecordCached(text: string): ParsedSpfRecord {
  const hit = cache.get(text);
  if (hit) return hit;
  const parsed = parseSpfRecord(text);
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(text, parsed);
  return parsed;
}
