import { isIP } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { REPORT_LIMITS, type ReportLimits } from './report-limits.js';
import { ReportRefusal } from './report-refusal.js';

/** One `<record>` of an aggregate report, with results in lower case and alignment from the policy evaluation. */
export interface DmarcRecord {
  readonly sourceIp: string;
  readonly count: number;
  /** none, quarantine or reject (RFC 7489 and RFC 9990 alike). */
  readonly disposition: string;
  /** DMARC's own verdicts (`policy_evaluated`): pass means aligned and passing. */
  readonly dkimAligned: boolean;
  readonly spfAligned: boolean;
  readonly dmarcPass: boolean;
  readonly headerFrom: string | null;
  readonly envelopeFrom: string | null;
  /** The first DKIM and SPF results under `auth_results`, before alignment: pass, fail, neutral, none, ... */
  readonly dkimResult: string | null;
  readonly dkimDomain: string | null;
  readonly dkimSelector: string | null;
  readonly spfResult: string | null;
  readonly spfDomain: string | null;
  /** `reason` types given for an overridden disposition (forwarded, mailing_list, ...); empty ones dropped. */
  readonly reasons: readonly string[];
}

export interface DmarcReport {
  readonly kind: 'dmarc';
  /** `1.0`: RFC 7489's schema; `2.0`: RFC 9990's (namespace urn:ietf:params:xml:ns:dmarc-2.0). */
  readonly schema: '1.0' | '2.0';
  readonly orgName: string;
  readonly orgEmail: string | null;
  readonly reportId: string;
  /** The domain the policy was published for (lower case, no trailing dot). */
  readonly domain: string;
  readonly begin: Date;
  readonly end: Date;
  readonly policy: {
    readonly p: string | null;
    readonly sp: string | null;
    readonly adkim: string | null;
    readonly aspf: string | null;
    readonly pct: number | null;
  };
  readonly records: readonly DmarcRecord[];
  /** Records left out: no valid source address or count. */
  readonly skippedRecords: number;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Only the five XML entities and character references: a DOCTYPE is refused before parsing, so no declared entity exists.
  processEntities: true,
  htmlEntities: false,
  // Lists where the schema allows several: records, reasons, and auth_results' dkim and spf (policy_evaluated's are single).
  isArray: (name, jpath) =>
    name === 'record' || name === 'reason' || (typeof jpath === 'string' && (jpath.endsWith('auth_results.dkim') || jpath.endsWith('auth_results.spf'))),
});

/**
 * Reads a DMARC aggregate report (RFC 7489 appendix C, RFC 9990) from decoded text. Refuses any
 * DOCTYPE or entity declaration outright (no DTD is ever read, so no external entity and no entity
 * expansion), text that is not well-formed XML, and a document that is not a `<feedback>` report.
 */
export function parseDmarcReport(text: string, limits: ReportLimits = REPORT_LIMITS): DmarcReport {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new ReportRefusal('dtd_refused', 'The XML declares a DOCTYPE or an entity; aggregate reports never need one, so the file was refused unread.');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ReportRefusal('invalid_xml', `The file is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}).`);
  let tree: unknown;
  try {
    tree = parser.parse(text);
  } catch (error) {
    throw new ReportRefusal('invalid_xml', `The XML could not be read (${error instanceof Error ? error.message : String(error)}).`);
  }
  const feedback = child(tree, 'feedback');
  if (!isObject(feedback)) throw new ReportRefusal('not_a_report', 'The XML is not a DMARC aggregate report: its root element is not <feedback>.');
  const metadata = child(feedback, 'report_metadata');
  const published = child(feedback, 'policy_published');
  const orgName = str(child(metadata, 'org_name'));
  const reportId = str(child(metadata, 'report_id'));
  const domain = str(child(published, 'domain'))?.toLowerCase().replace(/\.$/, '') ?? null;
  const range = child(metadata, 'date_range');
  const begin = unixSeconds(str(child(range, 'begin')));
  const end = unixSeconds(str(child(range, 'end')));
  const missing = [
    orgName ? null : 'report_metadata/org_name',
    reportId ? null : 'report_metadata/report_id',
    domain ? null : 'policy_published/domain',
    begin ? null : 'report_metadata/date_range/begin',
    end ? null : 'report_metadata/date_range/end',
  ].filter((m): m is string => m !== null);
  if (missing.length > 0 || !orgName || !reportId || !domain || !begin || !end)
    throw new ReportRefusal('not_a_report', `The aggregate report lacks ${missing.join(', ')}; it cannot be filed without them.`);
  if (end < begin) throw new ReportRefusal('not_a_report', 'The report period ends before it begins (date_range end < begin).');
  if (!/^[a-z0-9._-]{1,253}$/.test(domain)) throw new ReportRefusal('not_a_report', `policy_published/domain "${domain.slice(0, 80)}" is not a domain name.`);

  const rawRecords = list(child(feedback, 'record'));
  if (rawRecords.length > limits.maxRecords)
    throw new ReportRefusal('too_many_records', `The report has ${rawRecords.length} records; at most ${limits.maxRecords} are read from one report.`);
  const records: DmarcRecord[] = [];
  let skipped = 0;
  for (const raw of rawRecords) {
    const record = readRecord(raw);
    if (record) records.push(record);
    else skipped++;
  }
  const pct = str(child(published, 'pct'));
  return {
    kind: 'dmarc',
    schema: /urn:ietf:params:xml:ns:dmarc-2\.0/.test(text.slice(0, 2048)) ? '2.0' : '1.0',
    orgName: orgName.slice(0, 200),
    orgEmail: str(child(metadata, 'email'))?.slice(0, 200) ?? null,
    reportId: reportId.slice(0, 200),
    domain,
    begin,
    end,
    policy: {
      p: lower(child(published, 'p')),
      sp: lower(child(published, 'sp')),
      adkim: lower(child(published, 'adkim')),
      aspf: lower(child(published, 'aspf')),
      pct: pct && /^\d{1,3}$/.test(pct) ? Number(pct) : null,
    },
    records,
    skippedRecords: skipped,
  };
}

function readRecord(raw: unknown): DmarcRecord | null {
  const row = child(raw, 'row');
  const sourceIp = str(child(row, 'source_ip'))?.replace(/^\[|\]$/g, '') ?? '';
  const countText = str(child(row, 'count'));
  if (isIP(sourceIp) === 0 || !countText || !/^\d{1,10}$/.test(countText)) return null;
  const count = Number(countText);
  if (count > 1_000_000_000) return null;
  const evaluated = child(row, 'policy_evaluated');
  const dkimAligned = lower(child(evaluated, 'dkim')) === 'pass';
  const spfAligned = lower(child(evaluated, 'spf')) === 'pass';
  const identifiers = child(raw, 'identifiers');
  const auth = child(raw, 'auth_results');
  const dkim = list(child(auth, 'dkim'));
  const spf = list(child(auth, 'spf'));
  // The first passing result, else the first: what the portal shows for the row.
  const dkimShown = dkim.find((d) => lower(child(d, 'result')) === 'pass') ?? dkim[0];
  const spfShown = spf.find((s) => lower(child(s, 'result')) === 'pass') ?? spf[0];
  const reasons = list(child(evaluated, 'reason'))
    .map((r) => lower(child(r, 'type')) ?? lower(r))
    .filter((r): r is string => r !== null && r !== '');
  return {
    sourceIp: normalizeIp(sourceIp),
    count,
    disposition: lower(child(evaluated, 'disposition')) ?? 'none',
    dkimAligned,
    spfAligned,
    dmarcPass: dkimAligned || spfAligned,
    headerFrom: lower(child(identifiers, 'header_from')),
    envelopeFrom: lower(child(identifiers, 'envelope_from')),
    dkimResult: lower(child(dkimShown, 'result')),
    dkimDomain: lower(child(dkimShown, 'domain')),
    dkimSelector: str(child(dkimShown, 'selector'))?.slice(0, 200) ?? null,
    spfResult: lower(child(spfShown, 'result')),
    spfDomain: lower(child(spfShown, 'domain')),
    reasons: [...new Set(reasons)].slice(0, 10),
  };
}

/** IPv6 in one spelling (lower case, zeros compressed by URL's parser), so the same sender groups as one source. */
function normalizeIp(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return ip.toLowerCase();
  }
}

function unixSeconds(text: string | null): Date | null {
  if (!text || !/^\d{1,12}$/.test(text)) return null;
  const seconds = Number(text);
  // 2000-01-01 to 2100-01-01: anything else is not a report period.
  if (seconds < 946_684_800 || seconds > 4_102_444_800) return null;
  return new Date(seconds * 1000);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(value: unknown, name: string): unknown {
  return isObject(value) ? value[name] : undefined;
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** Text of a leaf (an element with attributes only has '#text'); null when absent or empty. */
function str(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number') return String(value);
  if (isObject(value)) return str(value['#text']);
  return null;
}

function lower(value: unknown): string | null {
  const text = str(value);
  return text === null ? null : text.toLowerCase().slice(0, 200);
}
