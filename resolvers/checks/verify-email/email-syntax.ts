import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Whether an address can be used as an SMTP envelope address by a sender: the Mailbox of RFC 5321
 * section 4.1.2 with a Dot-string local part, widened to UTF-8 by RFC 6531 (SMTPUTF8), and a
 * host-name domain. Stricter than RFC 5322 on purpose, because a list cleaner asks "can I send to
 * this?", not "may this appear in a header?":
 * - comments, folding white space and obsolete forms (RFC 5322 CFWS, obs-*) are refused: they are
 *   header syntax, never part of an envelope address;
 * - quoted local parts ("john doe"@x) and address literals (x@[192.0.2.1]) are legal in RFC 5321
 *   but no mailbox provider hands them out and most senders reject them: refused;
 * - lengths follow RFC 5321 4.5.3.1: local part 64 octets, domain 255 (253 in text), labels 63
 *   (counted on the A-label of an internationalised name), whole address 254 (RFC 3696 errata 1690);
 * - an all-numeric top-level label is refused (no such TLD; RFC 3696 section 2);
 * - a single-label domain (user@tld) is syntactically allowed; DNS then decides, as it did for
 *   is_email, whose verdict on those addresses depended on the TLD's own MX.
 */
export type EmailSyntax =
  | { readonly valid: true; readonly local: string; readonly domain: string; readonly domainUnicode: string | null }
  | { readonly valid: false; readonly reason: EmailSyntaxError; readonly message: string };

export type EmailSyntaxError =
  | 'empty'
  | 'control_or_space'
  | 'no_at_sign'
  | 'no_local_part'
  | 'no_domain'
  | 'quoted_local_part'
  | 'invalid_local_part'
  | 'local_part_too_long'
  | 'address_literal'
  | 'invalid_domain'
  | 'label_too_long'
  | 'domain_too_long'
  | 'numeric_tld'
  | 'address_too_long';

// atext of RFC 5322 3.2.3, plus any non-ASCII character (RFC 6531 section 3.3, UTF8-non-ascii).
const ATOM = /^(?:[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]|[^\x00-\x7f])+$/u;
const LDH_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function refuse(reason: EmailSyntaxError, message: string): EmailSyntax {
  return { valid: false, reason, message };
}

export function checkEmailSyntax(address: string): EmailSyntax {
  if (address === '') return refuse('empty', 'The address is empty.');
  // White space, CR/LF and other controls belong to header folding and comments, never to an envelope address.
  if (/[\s\x00-\x1f\x7f]/.test(address)) return refuse('control_or_space', 'The address contains white space or a control character.');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(address))
    return refuse('invalid_local_part', 'The address contains a broken Unicode character.');
  const at = address.lastIndexOf('@');
  if (at === -1) return refuse('no_at_sign', 'The address has no @.');
  const local = address.slice(0, at);
  const domainPart = address.slice(at + 1);
  if (local === '') return refuse('no_local_part', 'Nothing comes before the @.');
  if (domainPart === '') return refuse('no_domain', 'Nothing comes after the @.');
  if (local.startsWith('"') || local.includes('"')) {
    return refuse('quoted_local_part', 'The part before the @ is quoted; legal in RFC 5321 but not accepted by mailbox providers or senders.');
  }
  if (local.includes('(') || domainPart.includes('('))
    return refuse('invalid_local_part', 'The address contains a comment in parentheses (header syntax, not an address).');
  // Dot-string (RFC 5321 4.1.2): atoms separated by single dots, no dot at either end.
  if (!local.split('.').every((atom) => ATOM.test(atom))) {
    return refuse('invalid_local_part', 'The part before the @ has a character that is not allowed, or a dot at its start, its end or twice in a row.');
  }
  if (Buffer.byteLength(local, 'utf8') > 64) return refuse('local_part_too_long', 'The part before the @ is longer than 64 octets (RFC 5321 4.5.3.1.1).');
  if (domainPart.startsWith('[')) return refuse('address_literal', 'The domain is an address literal in brackets; send to a domain name instead.');

  const ascii = /^[\x00-\x7f]*$/.test(domainPart) ? domainPart.toLowerCase() : domainToASCII(domainPart.toLowerCase());
  if (ascii === '') return refuse('invalid_domain', 'The domain is not a valid (internationalised) domain name.');
  const labels = ascii.split('.');
  if (labels.some((label) => label.length > 63)) return refuse('label_too_long', 'A part of the domain between dots is longer than 63 octets.');
  if (!labels.every((label) => LDH_LABEL.test(label))) {
    return refuse('invalid_domain', 'The domain may hold only letters, digits and hyphens between single dots, with no hyphen at either end of a part.');
  }
  if (ascii.length > 253) return refuse('domain_too_long', 'The domain is longer than 253 characters (RFC 5321 4.5.3.1.2).');
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) return refuse('numeric_tld', 'The domain ends in an all-numeric label, which no top-level domain is.');
  if (Buffer.byteLength(local, 'utf8') + 1 + ascii.length > 254)
    return refuse('address_too_long', 'The address is longer than 254 characters (RFC 5321 4.5.3.1.3).');
  const unicode = ascii.includes('xn--') ? domainToUnicode(ascii) : ascii;
  return { valid: true, local, domain: ascii, domainUnicode: unicode !== ascii && unicode !== '' ? unicode : null };
}
