/**
 * The DKIM tag=value list (RFC 6376 section 3.2), read strictly by its ABNF:
 *
 *   tag-list  = tag-spec *( ";" tag-spec ) [ ";" ]
 *   tag-spec  = [FWS] tag-name [FWS] "=" [FWS] tag-value [FWS]
 *   tag-name  = ALPHA *ALNUMPUNC
 *   tag-value = [ tval *( 1*(WSP / FWS) tval ) ]      tval = 1*VALCHAR (%x21-3A / %x3C-7E)
 *
 * So whitespace is allowed around names, "=" and values, and inside values between runs of visible
 * characters. Whitespace after the optional final ";" ("p=abc; ") is accepted too: the ABNF's
 * [FWS] at the end of a tag-spec reads naturally onto it, section 3.2 says tag-lists are read with
 * whitespace ignored around tags, and dkimpy, Mail::DKIM and OpenDKIM all verify with such keys, so
 * a receiver would use the key (mox is the strict exception). Tag names are case-sensitive (section 3.2: "Tags MUST be interpreted in a
 * case-sensitive manner") and a tag may appear once.
 */
export type TagListResult =
  | { readonly ok: true; readonly tags: ReadonlyMap<string, string>; readonly order: readonly string[] }
  | { readonly ok: false; readonly error: 'parse' | 'duplicate-tag'; readonly message: string };

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const TAG_VALUE = /^(?:[\x21-\x3a\x3c-\x7e]+(?:[ \t\r\n]+[\x21-\x3a\x3c-\x7e]+)*)?$/;

export function parseTagList(text: string): TagListResult {
  if (text.trim() === '')
    return { ok: false, error: 'parse', message: 'The record is empty: a key record is a list of tag=value pairs such as "v=DKIM1; k=rsa; p=...".' };
  const specs = text.split(';');
  // A final ";" leaves one piece that is empty or whitespace only: the optional trailing ";" of the
  // ABNF, with the whitespace a DNS panel leaves after it.
  if (specs.length > 1 && specs.at(-1)!.trim() === '') specs.pop();
  const tags = new Map<string, string>();
  const order: string[] = [];
  for (const [index, spec] of specs.entries()) {
    const eq = spec.indexOf('=');
    if (eq < 0) {
      const what = spec.trim() === '' ? `an empty tag ${index === 0 ? 'before the first ";"' : 'between two ";"'}` : `"${spec.trim()}" has no "="`;
      return { ok: false, error: 'parse', message: `Tag list syntax error: ${what} (RFC 6376 section 3.2).` };
    }
    const name = spec.slice(0, eq).trim();
    const rawValue = spec.slice(eq + 1);
    if (!TAG_NAME.test(name)) {
      return {
        ok: false,
        error: 'parse',
        message: `Tag list syntax error: "${spec.slice(0, eq).trim() || '(empty)'}" is not a tag name (a letter, then letters, digits or "_").`,
      };
    }
    // FWS in a TXT record is spaces and tabs; CRLF folding cannot occur there but is harmless to accept.
    const value = rawValue.replace(/^[ \t\r\n]+|(?<![ \t\r\n])[ \t\r\n]+$/g, '');
    if (!TAG_VALUE.test(value)) {
      return {
        ok: false,
        error: 'parse',
        message: `Tag list syntax error: the value of "${name}=" holds a character not allowed in a tag value (only visible ASCII other than ";").`,
      };
    }
    if (tags.has(name)) {
      return { ok: false, error: 'duplicate-tag', message: `The tag "${name}=" appears more than once; a tag may appear only once (RFC 6376 section 3.2).` };
    }
    tags.set(name, value);
    order.push(name);
  }
  return { ok: true, tags, order };
}
