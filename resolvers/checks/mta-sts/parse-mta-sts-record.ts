/** The `_mta-sts` TXT record (RFC 8461 section 3.1). */
export interface MtaStsRecord {
  readonly id: string | null;
  /** Why the record is not usable, or empty when it is valid. */
  readonly problems: readonly string[];
  /** Extension fields (RFC 8461 section 3.1 sts-ext), kept for display. */
  readonly extensions: Readonly<Record<string, string>>;
}

/** Only records that begin with "v=STSv1" count; the rest of the TXT set is discarded (section 3.1). */
export function isMtaStsRecord(text: string): boolean {
  return /^v=STSv1(?:[ \t]*;|[ \t]*$)/.test(text);
}

const ID = /^[A-Za-z0-9]{1,32}$/;
const EXT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const EXT_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

/**
 * Parses one record against the ABNF of RFC 8461 section 3.1: `v=STSv1` first (case-sensitive),
 * fields separated by ";" with optional spaces/tabs, an `id` of 1 to 32 letters and digits. A
 * record with no id, a malformed id or a malformed field is invalid, which makes senders act as if
 * the domain had no policy.
 */
export function parseMtaStsRecord(text: string): MtaStsRecord {
  const problems: string[] = [];
  const extensions: Record<string, string> = {};
  let id: string | null = null;
  const fields = text.split(';').map((f) => f.replace(/^[ \t]+|(?<![ \t])[ \t]+$/g, ''));
  if (fields[0] !== 'v=STSv1') problems.push('the record must begin with "v=STSv1" (case-sensitive)');
  // A trailing separator is allowed: an empty last field is not an error.
  if (fields.length > 1 && fields.at(-1) === '') fields.pop();
  for (const field of fields.slice(1)) {
    const eq = field.indexOf('=');
    if (eq <= 0) {
      problems.push(`"${field}" is not a name=value field`);
      continue;
    }
    const name = field.slice(0, eq);
    const value = field.slice(eq + 1);
    if (name === 'id') {
      if (id !== null) problems.push('the id field appears more than once');
      else if (!ID.test(value)) problems.push(`the id "${value}" must be 1 to 32 letters and digits`);
      id = id ?? value;
    } else if (name === 'v') {
      problems.push('the v field appears more than once');
    } else if (!EXT_NAME.test(name) || !EXT_VALUE.test(value)) {
      problems.push(`the field "${field}" is not a valid extension field`);
    } else {
      extensions[name] = value;
    }
  }
  if (id === null) problems.push('the record has no id field (id=<1 to 32 letters and digits>)');
  return { id: id !== null && ID.test(id) ? id : null, problems, extensions };
}
