/**
 * RFC 7208 section 7: macro-strings. A domain-spec or explanation is parsed once into tokens (so a
 * syntax error anywhere in a record is found before evaluation, 4.6) and expanded later, when the
 * current domain, sender and client address are known.
 */
const MACRO_LETTERS = ['s', 'l', 'o', 'd', 'i', 'p', 'h', 'c', 'r', 't', 'v'] as const;
export type MacroLetter = (typeof MACRO_LETTERS)[number];

function isMacroLetter(value: string): value is MacroLetter {
  return (MACRO_LETTERS as readonly string[]).includes(value);
}

export type MacroToken =
  | { readonly kind: 'literal'; readonly text: string }
  | {
      readonly kind: 'macro';
      readonly letter: MacroLetter;
      /** An upper-case letter asks for URL escaping of the expansion (7.3). */
      readonly escape: boolean;
      /** Keep only this many right-hand parts; null keeps all. */
      readonly digits: number | null;
      readonly reverse: boolean;
      /** Characters the value is split on; "." when none is given. */
      readonly delimiters: string;
    };

export type MacroParse = { readonly ok: true; readonly tokens: readonly MacroToken[] } | { readonly ok: false; readonly error: string };

const DOMAIN_LETTERS = 'slodiphv';
/** c, r and t are only allowed in explanation text (7.2). */
const EXPLANATION_LETTERS = 'slodiphvcrt';

/**
 * macro-string = *( macro-expand / macro-literal ); with `explanation` set, spaces are literal too
 * (explain-string = *( macro-string / SP )).
 */
export function parseMacroString(text: string, options: { readonly explanation?: boolean } = {}): MacroParse {
  const letters = options.explanation ? EXPLANATION_LETTERS : DOMAIN_LETTERS;
  const tokens: MacroToken[] = [];
  let literal = '';
  const flush = (): void => {
    if (literal !== '') tokens.push({ kind: 'literal', text: literal });
    literal = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charAt(i);
    const code = ch.charCodeAt(0);
    if (ch !== '%') {
      // macro-literal = %x21-24 / %x26-7E: visible ASCII (and the space of explanation text).
      const allowed = (code >= 0x21 && code <= 0x7e) || (options.explanation === true && code === 0x20);
      if (!allowed) return { ok: false, error: `the character ${JSON.stringify(ch)} is not allowed here` };
      literal += ch;
      continue;
    }
    const next = text[i + 1];
    if (next === '%') {
      literal += '%';
      i += 1;
      continue;
    }
    if (next === '_') {
      literal += ' ';
      i += 1;
      continue;
    }
    if (next === '-') {
      literal += '%20';
      i += 1;
      continue;
    }
    if (next !== '{') return { ok: false, error: `"%" must be followed by "{", "%", "_" or "-" (RFC 7208 7.1)` };
    const close = text.indexOf('}', i + 2);
    if (close < 0) return { ok: false, error: 'a macro "%{" is not closed with "}"' };
    const body = text.slice(i + 2, close);
    const m = /^([a-zA-Z])([0-9]*)([rR]?)([.\-+,/_=]*)$/.exec(body);
    if (!m) return { ok: false, error: `"%{${body}}" is not a valid macro` };
    const [, letterRaw = '', digitsRaw = '', reverseRaw = '', delimiters = ''] = m;
    const letter = letterRaw.toLowerCase();
    // Every letter of `letters` is a MacroLetter; the guard says so to the type checker.
    if (!isMacroLetter(letter) || !letters.includes(letter)) {
      return {
        ok: false,
        error:
          options.explanation || !EXPLANATION_LETTERS.includes(letter)
            ? `"%{${body}}" uses an unknown macro letter "${letterRaw}"`
            : `"%{${body}}": the macro letters c, r and t are only allowed in explanation text (RFC 7208 7.2)`,
      };
    }
    if (digitsRaw !== '' && Number(digitsRaw) === 0) return { ok: false, error: `"%{${body}}": the number of parts must not be zero (RFC 7208 7.3)` };
    flush();
    tokens.push({
      kind: 'macro',
      letter,
      escape: letterRaw !== letter,
      digits: digitsRaw === '' ? null : Number(digitsRaw),
      reverse: reverseRaw !== '',
      delimiters: delimiters === '' ? '.' : delimiters,
    });
    i = close;
  }
  flush();
  return { ok: true, tokens };
}

// toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum ), matched greedily.
const TOPLABEL = /^(?:[0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])$/i;

/**
 * domain-spec = macro-string domain-end; domain-end = ( "." toplabel [ "." ] ) / macro-expand.
 * Checked on the text before expansion: the conformance suite (invalid-hello-macro) says a
 * domain-spec is not re-checked after expansion.
 */
export function parseDomainSpec(text: string): MacroParse {
  if (text === '') return { ok: false, error: 'the domain is empty' };
  const parsed = parseMacroString(text);
  if (!parsed.ok) return parsed;
  // Ends in a macro-expand: "%{...}", "%%", "%_" or "%-" (counting the %s before an ending
  // character tells an escape from a literal).
  if (/%\{[^}]*\}$/.test(text) || /(^|[^%])(%%)*%[%_-]$/.test(text)) return parsed;
  const withoutDot = text.endsWith('.') ? text.slice(0, -1) : text;
  const dot = withoutDot.lastIndexOf('.');
  const top = withoutDot.slice(dot + 1);
  if (dot < 0 || !TOPLABEL.test(top)) {
    return { ok: false, error: `"${text}" does not end in a valid top-level label such as ".com" (RFC 7208 7.1)` };
  }
  return parsed;
}
