import type { Finding } from '../check-result.js';
import type { ParsedSpfRecord } from './parse-spf-record.js';
import { spfFinding } from './spf-findings.js';
import type { SpfPlace } from './spf-tree-types.js';

/** RFC 7208 3.4: keep the record small enough for the whole DNS answer to fit in 512 octets. */
const LONG_RECORD = 450;

/** Record-level advice, in this order: syntax, all (for the domain's own policy only), length. */
export function judgeSpfRecord(parsed: ParsedSpfRecord, current: string, place: SpfPlace): Finding[] {
  const findings: Finding[] = [];
  for (const error of parsed.errors) {
    findings.push(
      spfFinding(
        error.code,
        `In the SPF record of ${current}, ${error.message}. A syntax error makes the whole record a permanent error (permerror), so fix or remove "${error.term}".`,
      ),
    );
  }
  if (place !== 'policy') return findings;
  const all = parsed.mechanisms.find((m) => m.name === 'all');
  if (!all && !parsed.redirect) {
    findings.push(
      spfFinding(
        'no_all_mechanism',
        `The SPF record of ${current} ends without an "all" mechanism or a redirect, so unlisted senders get "neutral"; end it with "-all" (or "~all" while you test).`,
      ),
    );
  }
  if (all?.qualifier === '?') {
    findings.push(
      spfFinding('neutral_all', `The SPF record of ${current} ends with "?all", which says nothing about unlisted senders; use "-all" (or "~all").`),
    );
  }
  const allIndex = parsed.terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all');
  if (allIndex >= 0 && parsed.terms.slice(allIndex + 1).some((t) => t.kind === 'mechanism')) {
    findings.push(
      spfFinding(
        'terms_after_all',
        `In the SPF record of ${current}, mechanisms after "${parsed.terms[allIndex]?.text}" are never evaluated; move them before it.`,
      ),
    );
  }
  if (parsed.redirect && parsed.hasAll) {
    findings.push(
      spfFinding('redirect_ignored', `The SPF record of ${current} has both "all" and "${parsed.redirect.text}"; the redirect is ignored (RFC 7208 6.1).`),
    );
  }
  if (Buffer.byteLength(parsed.text) > LONG_RECORD) {
    findings.push(
      spfFinding(
        'record_too_long',
        `The SPF record of ${current} is ${Buffer.byteLength(parsed.text)} characters long; above about ${LONG_RECORD} the DNS answer no longer fits in one UDP packet and some receivers fail to read it. Shorten it (for example replace several ip4 terms with a prefix, or drop unused includes).`,
      ),
    );
  }
  return findings;
}
