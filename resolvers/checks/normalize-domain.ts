import { domainToASCII, domainToUnicode } from 'node:url';
import { isIP } from 'node:net';
import { DomainError } from '../domain-error.js';

export interface NormalizedDomain {
  /** The ASCII (A-label) form every lookup uses. */
  readonly domain: string;
  /** The Unicode form when the caller sent or the name holds an internationalised name, else null. */
  readonly unicode: string | null;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// Underscore labels (_dmarc, selector._domainkey) are legal DNS names, and some checks take them.
const LABEL_WITH_UNDERSCORE = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Turns what a person typed into the name we look up: trimmed, lower-cased, trailing dot dropped,
 * internationalised names converted to ASCII. Anything that is not a domain name (an email address,
 * a URL, an IP address, a bare word) is a 400 whose detail says what to pass instead.
 */
export function normalizeDomain(raw: unknown, param = 'domain', options: { allowUnderscore?: boolean } = {}): NormalizedDomain {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new DomainError('missing_parameter', `Send "${param}": a domain name such as example.com.`);
  }
  const trimmed = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || trimmed.includes('/')) {
    throw new DomainError('invalid_domain', `"${param}" must be a domain name, not a URL: pass only the host name, such as example.com.`);
  }
  if (trimmed.includes('@')) {
    const after = trimmed.slice(trimmed.lastIndexOf('@') + 1);
    throw new DomainError('invalid_domain', `"${param}" must be a domain name, not an email address: pass the part after the @ (${after || 'the domain'}).`);
  }
  const withoutDot = trimmed.replace(/\.$/, '');
  if (isIP(withoutDot) || /^\[.*\]$/.test(withoutDot)) {
    throw new DomainError('invalid_domain', `"${param}" must be a domain name, not an IP address: pass the domain that sends mail, such as example.com.`);
  }
  const ascii = domainToASCII(withoutDot.toLowerCase());
  const labels = ascii.split('.');
  const labelRule = options.allowUnderscore ? LABEL_WITH_UNDERSCORE : LABEL;
  if (ascii === '' || ascii.length > 253 || labels.length < 2 || !labels.every((l) => labelRule.test(l)) || /^[0-9]+$/.test(labels.at(-1) ?? '')) {
    throw new DomainError(
      'invalid_domain',
      `"${param}" is not a valid domain name ("${trimmed.slice(0, 100)}"): pass a name such as example.com, made of letters, digits and hyphens separated by dots.`,
    );
  }
  const unicode = domainToUnicode(ascii);
  return { domain: ascii, unicode: unicode !== ascii ? unicode : null };
}
