import type { CheckDkimAnswer, DkimKey } from '../dkim/check-dkim.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';

/** The key a receiver is best served by: valid, not in testing, ed25519 or the longest RSA key. */
function bestKey(keys: readonly DkimKey[]): DkimKey | undefined {
  const strength = (k: DkimKey): number => (k.testing ? 0 : 100_000) + (k.keyType === 'ed25519' ? 50_000 : (k.keyBits ?? 0));
  return [...keys].filter((k) => k.valid).sort((a, b) => strength(b) - strength(a))[0];
}

/**
 * DKIM, from the scan of common selectors: full marks for a valid key of 2048 bits or more (or
 * ed25519). No key at all scores nothing (Gmail and Yahoo require DKIM of bulk senders, hence the
 * cap). When _domainkey exists but no common selector has a key, keys may sit under a selector we
 * did not guess: we cannot tell, so the part is not scored rather than guessed. A wildcard answering
 * every name under _domainkey with no key of its own found is scored as no key (docs/grade.md).
 */
export function scoreDkim(answer: CheckDkimAnswer): PartAssessment {
  const domain = answer.domain;
  if (answer.keys.length === 0) {
    if (answer.status === 'error') return notScored('error', `Not scored: ${answer.summary}`);
    // A wildcard TXT answering every name is no evidence of a key: no DKIM found costs the part and
    // caps the grade as a missing key does. An existing _domainkey without a wildcard is evidence.
    if (answer.domainkeyExists === true && answer.wildcard !== true) {
      return notScored('warn', `Not scored: ${answer.summary} Check your selector with check-dkim and selector=.`);
    }
    return scoredPart(answer.status, answer.summary, [
      {
        code: 'dkim_missing',
        fraction: 1,
        cap: 'C',
        problem:
          answer.wildcard === true
            ? `${domain} has no DKIM key of its own under the common selectors; only a wildcard TXT answers there, which is no key.`
            : `${domain} publishes no DKIM key.`,
        fix: `Turn on DKIM signing at your mail provider and publish the TXT record it gives you under <selector>._domainkey.${domain}.`,
      },
    ]);
  }
  const best = bestKey(answer.keys);
  const deductions: Deduction[] = [];
  if (!best) {
    deductions.push({
      code: 'dkim_unusable',
      fraction: 1,
      cap: 'C',
      problem: `${domain} has DKIM keys (${answer.keys.map((k) => k.selector).join(', ')}) but none a receiver can use.`,
      fix: 'Publish a valid DKIM key of at least 2048 bits for the selector your provider signs with (see check-dkim for what is wrong with each key).',
    });
  } else {
    if (best.keyType === 'rsa' && (best.keyBits ?? 0) < 2048) {
      deductions.push({
        code: 'dkim_weak_key',
        fraction: 0.25,
        problem: `The best DKIM key of ${domain} (selector ${best.selector}) is RSA ${best.keyBits ?? '?'} bits; RFC 8301 asks for 2048.`,
        fix: `Rotate the DKIM key of selector ${best.selector} to a 2048-bit RSA key.`,
      });
    }
    if (best.testing) {
      deductions.push({
        code: 'dkim_testing',
        fraction: 0.5,
        problem: `The DKIM key of ${domain} (selector ${best.selector}) is in testing mode (t=y), so receivers may treat its signatures as absent.`,
        fix: `Remove t=y from ${best.selector}._domainkey.${domain}.`,
      });
    }
  }
  const detail = deductions.length === 0 ? answer.summary : deductions.map((d) => d.problem).join(' ');
  return scoredPart(answer.status, detail, deductions);
}
