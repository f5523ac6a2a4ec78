/**
 * A strict DMARC policy record parser (RFC 7489 section 6.4 ABNF, with the tags RFC 9989 (DMARCbis)
 * adds: np, t, psd).
 *
 * Choices, where the RFCs or implementations differ:
 * - v=DMARC1 must be the first tag, spelled exactly so (the ABNF gives it as %x44 %x4d %x41 %x52 %x43
 *   %x31, i.e. case-sensitive); other tag names and keyword values are case-insensitive.
 * - p=, when present, must directly follow v= (RFC 7489 ABNF). DMARCbis allows any order, but an
 *   RFC 7489 receiver discards such a record, and moving p= is a one-second fix, so it is an error.
 * - A missing or invalid p=, or an invalid sp=, is not fatal when rua= holds at least one valid URI:
 *   RFC 7489 section 6.6.3 (and DMARCbis, where p= is only RECOMMENDED) has receivers act as if the
 *   record said p=none. We parse such a record as policy none and report the issue.
 * - Every other bad value (adkim, aspf, pct, ri, fo, rf syntax, a rua/ruf URI, np, t, psd), an empty
 *   tag, a tag without "=" or a duplicate tag makes the record invalid, as OpenDMARC and mox do.
 * - rf= with a syntactically valid but unregistered format ("rf=other") is accepted and reported:
 *   RFC 7489 section 6.3 says receivers SHOULD ignore an unknown format, and DMARCbis drops rf.
 * - Unknown tags are ignored (RFC 7489 section 6.3).
 */
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export interface DmarcReportUri {
  /** The URI without its size limit, e.g. "mailto:dmarc@example.com". */
  readonly address: string;
  /** The "!10m" limit: 10, or 0 when none is given. */
  readonly max_size: number;
  /** "", "k", "m", "g" or "t" (lower-cased). */
  readonly unit: string;
}

export interface DmarcRecord {
  readonly v: 'DMARC1';
  readonly p: DmarcPolicy;
  /** "" when absent (subdomains then follow p). */
  readonly sp: DmarcPolicy | '';
  /** "" when absent (DMARCbis: non-existent subdomains then follow sp, then p). */
  readonly np: DmarcPolicy | '';
  readonly adkim: 'r' | 's';
  readonly aspf: 'r' | 's';
  readonly pct: number;
  readonly rua: readonly DmarcReportUri[];
  readonly ruf: readonly DmarcReportUri[];
  readonly ri: number;
  readonly fo: readonly string[];
  readonly rf: readonly string[];
  /** DMARCbis test mode: "y" or "n" (default). */
  readonly t: 'y' | 'n';
  /** DMARCbis public suffix domain flag: "y", "n" or "u" (default, unknown). */
  readonly psd: 'y' | 'n' | 'u';
  /** The tags as written, in order, names lower-cased. */
  readonly tags: readonly { readonly tag: string; readonly value: string }[];
}

export interface DmarcIssue {
  /** The tag at fault, or null for the record as a whole. */
  readonly tag: string | null;
  readonly message: string;
}

export type DmarcParseResult =
  | {
      readonly ok: true;
      readonly record: DmarcRecord;
      /** Set when p= was missing or invalid, or sp= invalid, and rua= saved the record as p=none. */
      readonly fallback: readonly DmarcIssue[];
      /** Accepted but worth telling: unregistered rf= formats, unknown tags. */
      readonly notes: readonly DmarcIssue[];
    }
  | {
      readonly ok: false;
      /** False when the text does not start with v=DMARC1 at all (it is some other TXT record). */
      readonly isDmarc: boolean;
      readonly errors: readonly DmarcIssue[];
    };

const POLICIES: readonly DmarcPolicy[] = ['none', 'quarantine', 'reject'];
// RFC 3986 URI characters, less "," and "!" which DMARC uses as delimiters (RFC 7489 section 6.4).
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~%$&'()*+;=:@/?#[\]]+$/;
// Keyword = Ldh-str (RFC 5321): letters, digits, hyphens, not ending in a hyphen.
const KEYWORD = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const KNOWN_TAGS = new Set(['v', 'p', 'sp', 'np', 'adkim', 'aspf', 'pct', 'rua', 'ruf', 'ri', 'fo', 'rf', 't', 'psd']);
const MAX_UINT32 = 4_294_967_295;
const WSP = /^[ \t]+|(?<![ \t])[ \t]+$/g;

/** Does this TXT text claim to be a DMARC record? Case-insensitive, so "v=dmarc1" is caught and reported. */
export function looksLikeDmarc(text: string): boolean {
  return /^[ \t]*v[ \t]*=[ \t]*dmarc1/i.test(text);
}

function parseUris(tag: string, value: string, errors: DmarcIssue[]): DmarcReportUri[] {
  const uris: DmarcReportUri[] = [];
  for (const raw of value.split(',')) {
    const item = raw.replace(WSP, '');
    const bang = item.indexOf('!');
    const address = bang < 0 ? item : item.slice(0, bang);
    if (!URI.test(address)) {
      errors.push({
        tag,
        message: `${tag}= holds "${item.slice(0, 80)}", which is not a URI; write each address as mailto:reports@example.com, separated by commas.`,
      });
      continue;
    }
    let maxSize = 0;
    let unit = '';
    if (bang >= 0) {
      const size = /^([0-9]+)([kmgtKMGT]?)$/.exec(item.slice(bang + 1));
      const number = size ? Number(size[1]) : NaN;
      if (!size || !Number.isSafeInteger(number)) {
        errors.push({
          tag,
          message: `${tag}= size limit "${item.slice(bang)}" is not valid; write it as "!" and a number with an optional unit k, m, g or t (e.g. !10m), or leave it out.`,
        });
        continue;
      }
      maxSize = number;
      unit = size[2]!.toLowerCase();
    }
    uris.push({ address, max_size: maxSize, unit });
  }
  return uris;
}

export function parseDmarcRecord(text: string): DmarcParseResult {
  const isDmarc = looksLikeDmarc(text);
  if (!isDmarc) {
    return { ok: false, isDmarc, errors: [{ tag: 'v', message: text.trim() === '' ? 'The record is empty.' : 'The record does not start with v=DMARC1.' }] };
  }
  const errors: DmarcIssue[] = [];
  const fallbackIssues: DmarcIssue[] = [];
  const notes: DmarcIssue[] = [];
  const tags = splitTags(text, errors);

  checkVersion(tags, errors);

  const get = (tag: string): string | undefined => tags.find((t) => t.tag === tag)?.value;
  const keyword = <T extends string>(tag: string, allowed: readonly T[], sink: DmarcIssue[]): T | undefined => {
    const value = get(tag);
    if (value === undefined) return undefined;
    const lower = value.toLowerCase();
    const match = allowed.find((a) => a === lower);
    if (match !== undefined) return match;
    sink.push({ tag, message: `${tag}=${value.slice(0, 40) || '(empty)'} is not valid: use ${allowed.map((a) => `${tag}=${a}`).join(', ')}.` });
    return undefined;
  };

  // p: must directly follow v (RFC 7489 ABNF); missing/invalid p is saved by a valid rua (section 6.6.3).
  const pIndex = tags.findIndex((t) => t.tag === 'p');
  let p = keyword('p', POLICIES, fallbackIssues);
  if (pIndex > 1) {
    errors.push({ tag: 'p', message: 'p= must come directly after v=DMARC1 (RFC 7489 section 6.4); move it to the second place.' });
  } else if (pIndex < 0) {
    fallbackIssues.push({ tag: 'p', message: 'The record has no p= tag; add p=none, p=quarantine or p=reject right after v=DMARC1.' });
  }
  const sp = keyword('sp', POLICIES, fallbackIssues);
  const np = keyword('np', POLICIES, errors);
  const adkim = keyword('adkim', ['r', 's'] as const, errors);
  const aspf = keyword('aspf', ['r', 's'] as const, errors);
  const t = keyword('t', ['y', 'n'] as const, errors);
  const psd = keyword('psd', ['y', 'n', 'u'] as const, errors);

  const { pct, ri, fo, rf } = readReportingTags(get, errors, notes);
  const ruaValue = get('rua');
  const rua = ruaValue === undefined ? [] : parseUris('rua', ruaValue, errors);
  const rufValue = get('ruf');
  const ruf = rufValue === undefined ? [] : parseUris('ruf', rufValue, errors);
  for (const { tag } of tags) {
    if (!KNOWN_TAGS.has(tag)) notes.push({ tag, message: `${tag}= is not a DMARC tag; receivers ignore it.` });
  }

  if (errors.length > 0) return { ok: false, isDmarc, errors: [...errors, ...fallbackIssues] };
  let spPolicy: DmarcPolicy | '' = sp ?? '';
  if (fallbackIssues.length > 0) {
    // RFC 7489 section 6.6.3: with a syntactically valid rua, act as if the record said p=none.
    if (rua.length === 0) return { ok: false, isDmarc, errors: fallbackIssues };
    p = 'none';
    spPolicy = '';
  }
  return {
    ok: true,
    record: {
      v: 'DMARC1',
      p: p ?? 'none',
      sp: spPolicy,
      np: np ?? '',
      adkim: adkim ?? 'r',
      aspf: aspf ?? 'r',
      pct,
      rua,
      ruf,
      ri,
      fo,
      rf,
      t: t ?? 'n',
      psd: psd ?? 'u',
      tags,
    },
    fallback: fallbackIssues,
    notes,
  };
}

/** The record's tag=value pairs in order; an empty tag, a part without "=", a bad name or a repeated tag is an error. */
function splitTags(text: string, errors: DmarcIssue[]): { tag: string; value: string }[] {
  const tags: { tag: string; value: string }[] = [];
  const seen = new Set<string>();

  const pieces = text.split(';');
  pieces.forEach((piece, index) => {
    const trimmed = piece.replace(WSP, '');
    if (trimmed === '') {
      // One trailing ";" (with spaces) is allowed; an empty tag elsewhere is not.
      if (index === pieces.length - 1 && index > 0) return;
      errors.push({ tag: null, message: 'The record has an empty tag (two ";" in a row); remove the extra ";".' });
      return;
    }
    const eq = trimmed.indexOf('=');
    if (eq < 0) {
      errors.push({
        tag: null,
        message: `"${trimmed.slice(0, 60)}" has no "=": every part between ";" must be tag=value. A missing ";" between two tags looks like this.`,
      });
      return;
    }
    const tag = trimmed.slice(0, eq).replace(WSP, '').toLowerCase();
    const value = trimmed.slice(eq + 1).replace(WSP, '');
    if (!/^[a-z][a-z0-9_]*$/.test(tag)) {
      errors.push({ tag: null, message: `"${trimmed.slice(0, eq).slice(0, 40)}" is not a tag name.` });
      return;
    }
    if (seen.has(tag)) {
      errors.push({ tag, message: `The tag ${tag}= appears more than once; keep one.` });
      return;
    }
    seen.add(tag);
    tags.push({ tag, value });
  });

  return tags;
}

/** v=DMARC1 must be the first tag, spelt exactly so. */
function checkVersion(tags: readonly { tag: string; value: string }[], errors: DmarcIssue[]): void {
  const first = tags[0];
  if (first?.tag !== 'v') {
    errors.push({ tag: 'v', message: 'v=DMARC1 must be the first tag of the record.' });
  } else if (first.value !== 'DMARC1') {
    const hint =
      first.value.toUpperCase() === 'DMARC1'
        ? ' (upper case: receivers ignore "v=dmarc1")'
        : /^DMARC1[ \t]/.test(first.value)
          ? '; a ";" is missing after v=DMARC1'
          : '';
    errors.push({ tag: 'v', message: `The version must be exactly "v=DMARC1"${hint}.` });
  }
}

/** pct=, ri=, fo= and rf=, each with its default when absent. */
function readReportingTags(
  get: (tag: string) => string | undefined,
  errors: DmarcIssue[],
  notes: DmarcIssue[],
): { pct: number; ri: number; fo: string[]; rf: string[] } {
  let pct = 100;
  const pctValue = get('pct');
  if (pctValue !== undefined) {
    if (/^[0-9]{1,3}$/.test(pctValue) && Number(pctValue) <= 100) pct = Number(pctValue);
    else
      errors.push({ tag: 'pct', message: `pct=${pctValue.slice(0, 20) || '(empty)'} is not valid: use a whole number from 0 to 100, or leave pct out (100).` });
  }
  let ri = 86400;
  const riValue = get('ri');
  if (riValue !== undefined) {
    if (/^[0-9]+$/.test(riValue) && Number(riValue) <= MAX_UINT32) ri = Number(riValue);
    else errors.push({ tag: 'ri', message: `ri=${riValue.slice(0, 20) || '(empty)'} is not valid: use a number of seconds such as 86400, or leave ri out.` });
  }
  let fo = ['0'];
  const foValue = get('fo');
  if (foValue !== undefined) {
    const options = foValue.split(':').map((o) => o.replace(WSP, ''));
    if (options.every((o) => /^[01ds]$/i.test(o))) fo = options.map((o) => o.toLowerCase());
    else errors.push({ tag: 'fo', message: `fo=${foValue.slice(0, 20) || '(empty)'} is not valid: use 0, 1, d or s, separated by ":" (e.g. fo=1).` });
  }
  let rf = ['afrf'];
  const rfValue = get('rf');
  if (rfValue !== undefined) {
    const formats = rfValue.split(':').map((f) => f.replace(WSP, ''));
    if (formats.every((f) => KEYWORD.test(f))) {
      rf = formats.map((f) => f.toLowerCase());
      const unknown = rf.filter((f) => f !== 'afrf');
      if (unknown.length > 0)
        notes.push({
          tag: 'rf',
          message: `rf= names ${unknown.join(', ')}, not a registered report format; receivers ignore it (only afrf exists). Remove rf=.`,
        });
    } else {
      errors.push({ tag: 'rf', message: `rf=${rfValue.slice(0, 20) || '(empty)'} is not valid: the only format is afrf, and the tag can be left out.` });
    }
  }
  return { pct, ri, fo, rf };
}
