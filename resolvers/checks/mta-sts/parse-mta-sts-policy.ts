const MODES = ['enforce', 'testing', 'none'] as const;
export type MtaStsMode = (typeof MODES)[number];

function isMode(value: string): value is MtaStsMode {
  return (MODES as readonly string[]).includes(value);
}

export interface MtaStsPolicy {
  readonly version: string;
  readonly mode: MtaStsMode;
  readonly mx: readonly string[];
  readonly maxAge: number;
}

export interface ParsedMtaStsPolicy {
  /** Null when a required field is missing or malformed (senders then have no usable policy). */
  readonly policy: MtaStsPolicy | null;
  /** Faults that make the policy unusable. */
  readonly errors: readonly string[];
  /** Oddities a sender tolerates. */
  readonly warnings: readonly string[];
}

/** RFC 8461 section 3.2: max_age is at most 31557600 seconds (about one year). */
export const MAX_MAX_AGE = 31_557_600;

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// sts-policy-mx-value = ["*."] Domain: a wildcard only as the whole leftmost label.
const MX_PATTERN = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})+\\.?$`);

/**
 * Parses a policy file (RFC 8461 section 3.2): "key: value" lines ended by LF or CRLF. version must
 * be STSv1, mode one of enforce/testing/none, max_age 1 to 10 digits up to 31557600, and at least
 * one mx pattern unless the mode is none. Unknown keys are extensions and are ignored.
 */
export function parseMtaStsPolicy(text: string): ParsedMtaStsPolicy {
  const errors: string[] = [];
  const warnings: string[] = [];
  const first = new Map<string, string>();
  const mx: string[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.replace(/(?<![ \t])[ \t]+$/, '');
    if (line === '') return;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      errors.push(`line ${index + 1} ("${line.slice(0, 60)}") is not a "key: value" line`);
      return;
    }
    const key = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^[ \t]+/, '');
    if (key === 'mx') {
      if (MX_PATTERN.test(value)) mx.push(value.toLowerCase().replace(/\.$/, ''));
      else errors.push(`"mx: ${value}" is not a host name or a "*." wildcard pattern`);
      return;
    }
    if (first.has(key)) {
      warnings.push(`the ${key} field appears more than once; senders use the first`);
      return;
    }
    first.set(key, value);
  });

  const version = first.get('version');
  if (version === undefined) errors.push('the policy has no "version: STSv1" line');
  else if (version !== 'STSv1') errors.push(`the version is "${version}", not STSv1`);

  const mode = first.get('mode');
  if (mode === undefined) errors.push('the policy has no mode line (enforce, testing or none)');
  else if (!isMode(mode)) errors.push(`the mode "${mode}" is not enforce, testing or none (lower-case)`);

  const rawMaxAge = first.get('max_age');
  let maxAge: number | null = null;
  if (rawMaxAge === undefined) errors.push('the policy has no max_age line');
  else if (!/^[0-9]{1,10}$/.test(rawMaxAge)) errors.push(`max_age "${rawMaxAge}" is not a number of seconds`);
  else if (Number(rawMaxAge) > MAX_MAX_AGE) errors.push(`max_age ${rawMaxAge} is above the maximum of ${MAX_MAX_AGE} seconds`);
  else maxAge = Number(rawMaxAge);

  if (mx.length === 0 && mode !== 'none') errors.push('the policy lists no mx pattern, so no mail server is allowed');

  const valid = errors.length === 0 && version === 'STSv1' && mode !== undefined && isMode(mode) && maxAge !== null;
  return {
    policy: valid && maxAge !== null ? { version, mode, mx, maxAge } : null,
    errors,
    warnings,
  };
}
