import { isIP } from 'node:net';

export interface BimiRecord {
  readonly logoUrl: string | null;
  readonly authorityUrl: string | null;
  /** Both l= and a= empty: an explicit refusal to take part (draft section 4.3.1). */
  readonly declined: boolean;
  readonly avp: 'brand' | 'personal' | null;
  readonly lps: boolean;
  /** Faults that make receivers ignore the record. */
  readonly errors: readonly string[];
  /** Values receivers ignore but that are worth telling. */
  readonly warnings: readonly string[];
}

/** Records that do not start with a v= tag naming BIMI1 are discarded (draft section 7.2 step 4). */
export function isBimiRecord(text: string): boolean {
  return /^[ \t]*v[ \t]*=[ \t]*BIMI1[ \t]*(?:;|$)/.test(text);
}

// Image formats the BIMI-formats registry does not hold; an l= ending so is a permanent error (4.3.2).
const OTHER_IMAGE_SUFFIX = /\.(png|jpe?g|gif|webp|bmp|ico|tiff?|avif|heic)$/i;

/**
 * Parses an Assertion Record (draft-brand-indicators-for-message-identification section 4.3): a
 * DKIM-style tag list with v=BIMI1 first, l= (required, empty or one HTTPS URI to the SVG), a=
 * (optional, empty or one HTTPS URI to the evidence document), avp= and lps=. Receivers must not fix
 * errors, so anything malformed is an error; unknown tags are ignored.
 */
export function parseBimiRecord(text: string): BimiRecord {
  const errors: string[] = [];
  const warnings: string[] = [];
  const tags = new Map<string, string>();
  const parts = text.split(';').map((p) => p.trim());
  if (parts.length > 1 && parts.at(-1) === '') parts.pop();
  parts.forEach((part, index) => {
    const eq = part.indexOf('=');
    if (eq <= 0) {
      errors.push(`"${part.slice(0, 60)}" is not a tag=value pair`);
      return;
    }
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (index === 0 && (name !== 'v' || value !== 'BIMI1')) errors.push('the record must start with v=BIMI1');
    if (tags.has(name)) errors.push(`the ${name}= tag appears more than once`);
    else tags.set(name, value);
  });

  const l = tags.get('l');
  const a = tags.get('a') ?? '';
  if (l === undefined) errors.push('the record has no l= tag; add l=https://... pointing at the SVG logo (or "l=; a=;" to decline BIMI)');
  const declined = (l ?? '') === '' && a === '' && l !== undefined;
  let logoUrl: string | null = null;
  let authorityUrl: string | null = null;
  if (l) {
    const problem = httpsUriProblem(l);
    if (problem) errors.push(`l=: ${problem}`);
    else if (OTHER_IMAGE_SUFFIX.test(new URL(l).pathname))
      errors.push(`l= points at ${new URL(l).pathname.split('/').pop()}, but the logo must be an SVG (SVG Tiny PS)`);
    else logoUrl = l;
  } else if (l === '' && a !== '') {
    errors.push('l= is empty, so receivers have no logo to show; put the SVG URL in l=');
  }
  if (a) {
    const problem = httpsUriProblem(a);
    if (problem) errors.push(`a=: ${problem}`);
    else authorityUrl = a;
  }

  const rawAvp = tags.get('avp');
  const avp = rawAvp === 'brand' || rawAvp === 'personal' ? rawAvp : null;
  if (rawAvp !== undefined && avp === null) warnings.push(`avp=${rawAvp} is neither "brand" nor "personal"; receivers ignore it or reject the record`);
  const rawLps = tags.get('lps');
  if (rawLps !== undefined && rawLps !== 'true' && rawLps !== 'false') warnings.push(`lps=${rawLps} is neither "true" nor "false"`);

  return { logoUrl, authorityUrl, declined, avp, lps: rawLps === 'true', errors, warnings };
}

function httpsUriProblem(value: string): string | null {
  // Commas inside a URI must be encoded; a bare comma means a list, and only one URI is allowed.
  if (value.includes(',')) return `"${value.slice(0, 100)}" holds more than one URI; only one is allowed`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value.slice(0, 100)}" is not a URI`;
  }
  if (url.protocol !== 'https:') return `"${value.slice(0, 100)}" is not an HTTPS URL; BIMI allows only HTTPS`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 || !host.includes('.')) return `"${value.slice(0, 100)}" must name a fully qualified host, not ${host}`;
  return null;
}
