/** The `_smtp._tls` TLS reporting record (RFC 8460 section 3). */
export interface TlsRptRecord {
  readonly rua: readonly string[];
  readonly problems: readonly string[];
}

/** Records not beginning with "v=TLSRPTv1" are discarded (RFC 8460 section 3). */
export function isTlsRptRecord(text: string): boolean {
  return /^v=TLSRPTv1(?:[ \t]*;|[ \t]*$)/.test(text);
}

/**
 * Parses `v=TLSRPTv1; rua=<uri>[,<uri>...]`: version first, rua required, each URI a mailto: address
 * or an https: URL (section 3, "tlsrpt-rua"); commas inside a URI are %-encoded per the RFC, so a
 * comma separates URIs. Other fields are extensions and are ignored.
 */
export function parseTlsRptRecord(text: string): TlsRptRecord {
  const problems: string[] = [];
  const fields = text.split(';').map((f) => f.trim());
  if (fields.length > 1 && fields.at(-1) === '') fields.pop();
  if (fields[0] !== 'v=TLSRPTv1') problems.push('the record must begin with "v=TLSRPTv1"');
  let rua: string[] | null = null;
  for (const field of fields.slice(1)) {
    const eq = field.indexOf('=');
    if (eq <= 0) {
      problems.push(`"${field}" is not a name=value field`);
      continue;
    }
    const name = field.slice(0, eq).trim();
    if (name !== 'rua') continue;
    if (rua !== null) {
      problems.push('the rua field appears more than once');
      continue;
    }
    rua = field
      .slice(eq + 1)
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== '');
    for (const uri of rua) {
      if (isMailtoAddress(uri)) continue;
      if (/^https:\/\/[^\s/]+/i.test(uri)) continue;
      problems.push(`"${uri}" is neither a mailto: address nor an https: URL`);
    }
    if (rua.length === 0) problems.push('the rua field lists no address');
  }
  if (rua === null) problems.push('the record has no rua field saying where reports go');
  return { rua: rua ?? [], problems };
}

/** mailto:local@domain where the domain holds a dot with something either side, told without a backtracking pattern. */
function isMailtoAddress(uri: string): boolean {
  const m = /^mailto:[^@\s]+@([^@\s]+)$/i.exec(uri);
  return m !== null && (m[1] ?? '').slice(1, -1).includes('.');
}
