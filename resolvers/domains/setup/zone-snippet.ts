import type { WantedRecord } from './setup-record.js';

/** A TXT value as zone-file character-strings: quoted, escaped, in pieces of at most 255 bytes (RFC 1035 5.1). */
function txtData(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  const pieces: string[] = [];
  for (let i = 0; i < bytes.length || pieces.length === 0; i += 255) pieces.push(bytes.subarray(i, i + 255).toString('utf8'));
  const quoted = pieces.map((p) => `"${p.replace(/["\\]/g, (c) => `\\${c}`)}"`);
  return quoted.length > 1 ? `( ${quoted.join(' ')} )` : quoted[0]!;
}

/**
 * The records as a BIND zone-file snippet (text/dns, RFC 4027): absolute names with the trailing
 * dot, so it pastes into any zone whatever its $ORIGIN; one record per line, a comment per purpose.
 */
export function zoneSnippet(domain: string, records: readonly (WantedRecord & { readonly status?: string })[]): string {
  const lines = [`; The records ${domain} needs (Google Workspace mailboxes), as a BIND zone-file snippet.`];
  for (const r of records) {
    const data = r.type === 'MX' ? `${r.priority ?? 10} ${r.value}.` : r.type === 'TXT' ? txtData(r.value) : r.type === 'CNAME' ? `${r.value}.` : r.value;
    lines.push(`; ${r.purpose}${r.required ? '' : ' (optional)'}`);
    // A delegated record's name is an alias of a record hosted elsewhere: a TXT pasted beside it would be refused.
    if (r.status === 'delegated') lines.push(`; ${r.name} is an alias (CNAME) of a record hosted elsewhere: publish this value there, not here.`);
    lines.push(`${r.status === 'delegated' ? '; ' : ''}${r.name}.\t${r.ttl}\tIN\t${r.type}\t${data}`);
  }
  return `${lines.join('\n')}\n`;
}
