/**
 * What a report message says about itself before anything in it is decoded: the domains named by
 * its subject (`Report Domain: example.com Submitter: ... Report-ID: ...`, RFC 7489 section
 * 7.2.1.1; RFC 8460 section 5.3 for TLS-RPT) and by its attachments' file names
 * (`receiver!domain!begin!end[!id].xml.gz`, RFC 7489 section 7.2.1.1 and RFC 8460 section 5.1).
 * Nothing is decompressed or parsed: the message is matched to an account from these first.
 */
export interface MessageScreen {
  /** Report domains the message names, lower case, without repeats; empty when it follows neither convention. */
  readonly domains: readonly string[];
}

/** The header block is read up to this many bytes; a report message's headers are a few KiB. */
const HEADER_BYTES = 64 * 1024;
/** File names read from the message's MIME headers, at most (a message carries at most REPORT_LIMITS.maxFiles reports). */
const MAX_NAMES = 50;

// Linear patterns (no nested or overlapping quantifiers): they run on a stranger's bytes.
const SUBJECT_DOMAIN = /report[ -]?domain:[ \t]*([a-z0-9._-]{1,253})/i;
const FILE_NAME = /(?:file)?name\*?=[ \t]*"?([^"\s;]{1,255})/gi;

export function screenReportMessage(message: Buffer): MessageScreen {
  const text = message.toString('latin1');
  const domains = new Set<string>();
  const subject = headerField(text.slice(0, HEADER_BYTES), 'subject');
  const fromSubject = subject ? SUBJECT_DOMAIN.exec(subject)?.[1] : undefined;
  if (fromSubject) addDomain(domains, fromSubject);
  let names = 0;
  for (const match of text.matchAll(FILE_NAME)) {
    if (++names > MAX_NAMES) break;
    const parts = (match[1] ?? '').replace(/^utf-8''/i, '').split('!');
    if (parts.length >= 4 && parts[1]) addDomain(domains, decodeURIComponentSafe(parts[1]));
  }
  return { domains: [...domains] };
}

/** One header field's unfolded value from the header block (the text before the first empty line). */
function headerField(head: string, name: string): string | null {
  const end = head.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? head : head.slice(0, end)).split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.slice(0, name.length + 1).toLowerCase() !== `${name}:`) continue;
    let value = line.slice(name.length + 1);
    while (i + 1 < lines.length && /^[ \t]/.test(lines[i + 1] ?? '')) value += ` ${(lines[++i] ?? '').trim()}`;
    return value.trim();
  }
  return null;
}

function addDomain(domains: Set<string>, raw: string): void {
  const domain = raw.toLowerCase().replace(/\.$/, '');
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return;
  if (labels.every((l) => l.length > 0 && l.length <= 63 && /^[a-z0-9_-]+$/.test(l))) domains.add(domain);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
