import { parseDmarcReport, type DmarcReport } from './parse-dmarc.js';
import { parseTlsReport, type TlsReport } from './parse-tls-rpt.js';
import { REPORT_LIMITS, type ReportLimits } from './report-limits.js';
import { ReportRefusal } from './report-refusal.js';
import { isRefused, sniffKind, unpackReport } from './unpack-report.js';

export type ParsedReport = DmarcReport | TlsReport;

/** What became of one file of an upload or a message: a report read, or the reason it was refused. */
export type ReportFileOutcome = { readonly name: string; readonly report: ParsedReport } | { readonly name: string; readonly refusal: ReportRefusal };

/**
 * Every report in one upload or message: unpacked (bounded), decoded (UTF-8, or the Latin-1 an XML
 * declaration names), then parsed as DMARC aggregate XML or TLS-RPT JSON. Never throws for bad
 * input: each file's refusal is in its outcome.
 */
export async function readReports(
  name: string,
  bytes: Buffer,
  options: { readonly allowMessage: boolean; readonly limits?: ReportLimits },
): Promise<ReportFileOutcome[]> {
  const limits = options.limits ?? REPORT_LIMITS;
  const unpacked = await unpackReport(name, bytes, { allowMessage: options.allowMessage, limits });
  return unpacked.map((file) => {
    if (isRefused(file)) return file;
    try {
      return { name: file.name, report: parseReportFile(file.bytes, limits) };
    } catch (error) {
      if (error instanceof ReportRefusal) return { name: file.name, refusal: error };
      throw error;
    }
  });
}

/** One decompressed file: XML is DMARC, JSON is TLS-RPT. */
export function parseReportFile(bytes: Buffer, limits: ReportLimits = REPORT_LIMITS): ParsedReport {
  if (bytes.length > limits.maxReportBytes)
    throw new ReportRefusal('too_large', `The report is ${bytes.length} bytes unpacked; at most ${limits.maxReportBytes} are read.`);
  const kind = sniffKind(bytes, false);
  if (kind === 'xml') return parseDmarcReport(decodeXml(bytes), limits);
  if (kind === 'json') return parseTlsReport(decodeUtf8(bytes, 'JSON'), limits);
  throw new ReportRefusal('unknown_format', 'The file is neither XML (DMARC aggregate) nor JSON (TLS-RPT).');
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const latin1 = new TextDecoder('latin1');

function decodeUtf8(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ReportRefusal('invalid_utf8', `The ${what} is not valid UTF-8; send it as the receiver sent it.`);
  }
}

/** XML in UTF-8 unless its declaration names ISO-8859-1 / Windows-1252 (which some older receivers write). */
function decodeXml(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_-]+)["']/.exec(head.replace(/^\uFEFF|^ï»¿/, ''))?.[1]?.toLowerCase();
  if (declared && /^(iso-8859-1|latin-?1|windows-1252|cp1252)$/.test(declared)) return latin1.decode(bytes);
  if (declared && !/^(utf-8|utf8|us-ascii|ascii)$/.test(declared))
    throw new ReportRefusal('invalid_utf8', `The XML declares encoding "${declared}"; reports are read in UTF-8 (or ISO-8859-1).`);
  return decodeUtf8(bytes, 'XML');
}
