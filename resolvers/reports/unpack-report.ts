import { gunzipSync } from 'node:zlib';
import { fromBufferPromise, type Entry, type ZipFile } from 'yauzl';
import type { simpleParser } from 'mailparser';
import { allowedOutputBytes, REPORT_LIMITS, type ReportLimits } from './report-limits.js';
import { ReportRefusal } from './report-refusal.js';

/** One report file taken out of its wrapping (gzip, zip, a message): still bytes, not yet decoded. */
export interface UnpackedFile {
  readonly name: string;
  readonly bytes: Buffer;
}

/** One file that could not be taken out, and why; its siblings are still read. */
export interface RefusedFile {
  readonly name: string;
  readonly refusal: ReportRefusal;
}

export type UnpackOutcome = UnpackedFile | RefusedFile;

/**
 * The decompressed bytes one upload or message may still produce, shared by every layer inside it,
 * so that twenty attachments of twenty zip entries of a gzip each cannot multiply the per-file caps.
 */
interface UnpackBudget {
  remaining: number;
}

export function isRefused(outcome: UnpackOutcome): outcome is RefusedFile {
  return 'refusal' in outcome;
}

type Kind = 'gzip' | 'zip' | 'xml' | 'json' | 'message' | 'unknown';

/**
 * What the bytes are, from the bytes: receivers label the same gzip `application/gzip`,
 * `application/x-gzip`, `application/octet-stream` or `application/x-zip-compressed`, and name a
 * zip `.xml.gz`, so neither the MIME type nor the name is trusted.
 */
export function sniffKind(bytes: Buffer, allowMessage: boolean): Kind {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05)) return 'zip';
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  while (start < bytes.length && start < 4096 && (bytes[start] === 0x20 || bytes[start] === 0x09 || bytes[start] === 0x0a || bytes[start] === 0x0d)) start++;
  if (bytes[start] === 0x3c) return 'xml';
  if (bytes[start] === 0x7b) return 'json';
  // A message starts with a header line: a field name, a colon.
  if (allowMessage && /^[!-9;-~]{1,76}:/.test(bytes.subarray(0, 80).toString('latin1'))) return 'message';
  return 'unknown';
}

/**
 * Takes the report files out of one upload, attachment or message: gzip (several members, trailing
 * zeros), zip (each entry, a `.xml.gz` inside one), an RFC 5322 message (each attachment, several
 * reports in one), or the plain file. Every decompression is bounded before its output is kept.
 */
export async function unpackReport(
  name: string,
  bytes: Buffer,
  options: { readonly allowMessage: boolean; readonly limits?: ReportLimits },
  budget: UnpackBudget = { remaining: (options.limits ?? REPORT_LIMITS).maxUnpackedTotalBytes },
): Promise<UnpackOutcome[]> {
  const limits = options.limits ?? REPORT_LIMITS;
  try {
    if (bytes.length === 0) throw new ReportRefusal('empty', 'The file is empty; send the report file itself.');
    if (bytes.length > limits.maxInputBytes)
      throw new ReportRefusal('too_large', `The file is ${bytes.length} bytes; a report file may be at most ${limits.maxInputBytes} bytes.`);
    const kind = sniffKind(bytes, options.allowMessage);
    switch (kind) {
      case 'gzip':
        return [await unpackInner(stripSuffix(name, '.gz'), gunzipBounded(bytes, limits, budget), limits, budget)];
      case 'zip':
        return await unzipBounded(name, bytes, limits, budget);
      case 'message':
        return await unpackMessage(name, bytes, limits, budget);
      case 'xml':
      case 'json':
        return [{ name, bytes }];
      default:
        throw new ReportRefusal(
          'unknown_format',
          'The file is not a DMARC aggregate report (XML, gzip or zip) nor a TLS-RPT report (JSON, gzip); send the attachment as the receiver sent it.',
        );
    }
  } catch (error) {
    if (error instanceof ReportRefusal) return [{ name, refusal: error }];
    throw error;
  }
}

/** Gzip layers read around one report: `report.xml.gz` in a `.gz` wrapper is the most receivers send. */
const MAX_GZIP_LAYERS = 2;

/**
 * One file inside a zip or a message may be gzip once more (`report.xml.gz` inside a zip), never
 * another archive, and gzip inside gzip at most MAX_GZIP_LAYERS deep: each layer may expand its input
 * again, so the depth is bounded rather than left to the input's size.
 */
async function unpackInner(name: string, bytes: Buffer, limits: ReportLimits, budget: UnpackBudget, layers = 1): Promise<UnpackedFile> {
  const kind = sniffKind(bytes, false);
  if (kind === 'gzip') {
    if (layers >= MAX_GZIP_LAYERS)
      throw new ReportRefusal('bad_archive', `${name} is gzip inside gzip more than ${MAX_GZIP_LAYERS} deep; send the report as the receiver sent it.`);
    return unpackInner(stripSuffix(name, '.gz'), gunzipBounded(bytes, limits, budget), limits, budget, layers + 1);
  }
  if (kind === 'xml' || kind === 'json') return { name, bytes };
  if (kind === 'zip') throw new ReportRefusal('bad_archive', 'An archive inside an archive is not read; send the report files themselves.');
  throw new ReportRefusal('unknown_format', `${name} is neither XML nor JSON once unpacked; send the report as the receiver sent it.`);
}

function gunzipBounded(bytes: Buffer, limits: ReportLimits, budget: UnpackBudget): Buffer {
  const allowed = Math.min(allowedOutputBytes(bytes.length, limits), budget.remaining);
  if (allowed <= 0) throw overBudget(limits);
  try {
    const inflated = gunzipSync(bytes, { maxOutputLength: allowed });
    budget.remaining -= inflated.length;
    return inflated;
  } catch (error) {
    if (isNodeError(error) && error.code === 'ERR_BUFFER_TOO_LARGE')
      throw new ReportRefusal(
        'decompression_bomb',
        `The gzip data unpacks to more than ${allowed} bytes (at most ${limits.maxRatio} times its ${bytes.length} bytes, never past ${limits.maxReportBytes}, and ${limits.maxUnpackedTotalBytes} for everything in one upload or message); it was refused unread.`,
      );
    throw new ReportRefusal('bad_archive', `The gzip data is damaged (${errorMessage(error)}); send the file as received.`);
  }
}

function overBudget(limits: ReportLimits): ReportRefusal {
  return new ReportRefusal(
    'decompression_bomb',
    `Everything in one upload or message may unpack to at most ${limits.maxUnpackedTotalBytes} bytes; this file comes past that, so it was refused unread. Send fewer reports at once.`,
  );
}

async function unzipBounded(name: string, bytes: Buffer, limits: ReportLimits, budget: UnpackBudget): Promise<UnpackOutcome[]> {
  let zip: ZipFile;
  try {
    zip = await fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (error) {
    throw new ReportRefusal('bad_archive', `The zip file is damaged (${errorMessage(error)}); send the file as received.`);
  }
  const outcomes: UnpackOutcome[] = [];
  let total = 0;
  let files = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/') || entry.fileName.startsWith('__MACOSX/')) continue;
      files++;
      if (files > limits.maxFiles)
        throw new ReportRefusal('too_many_files', `The zip holds more than ${limits.maxFiles} files; send at most ${limits.maxFiles} reports at once.`);
      const allowed = Math.min(allowedOutputBytes(entry.compressedSize, limits), limits.maxReportBytes - total, budget.remaining);
      // The declared size is checked before a byte is inflated; yauzl stops a stream that lies about it.
      if (entry.uncompressedSize > allowed)
        throw new ReportRefusal(
          'decompression_bomb',
          `${entry.fileName} in the zip unpacks to ${entry.uncompressedSize} bytes from ${entry.compressedSize} (more than ${allowed} allowed); it was refused unread.`,
        );
      const inflated = await readEntry(zip, entry);
      total += inflated.length;
      budget.remaining -= inflated.length;
      try {
        outcomes.push(await unpackInner(entry.fileName, inflated, limits, budget));
      } catch (error) {
        if (!(error instanceof ReportRefusal)) throw error;
        outcomes.push({ name: entry.fileName, refusal: error });
      }
    }
  } catch (error) {
    if (error instanceof ReportRefusal) throw error;
    throw new ReportRefusal('bad_archive', `The zip file is damaged (${errorMessage(error)}); send the file as received.`);
  } finally {
    zip.close();
  }
  if (files === 0) throw new ReportRefusal('empty', `The zip ${name} holds no file; send the report itself.`);
  return outcomes;
}

async function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  if (entry.isEncrypted()) throw new ReportRefusal('bad_archive', `${entry.fileName} in the zip is encrypted; send it unencrypted.`);
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/** Each attachment of a message (several reports in one message are each read); a message with none may carry the XML in its body. */
async function unpackMessage(name: string, bytes: Buffer, limits: ReportLimits, budget: UnpackBudget): Promise<UnpackOutcome[]> {
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    // mailparser is loaded with the first message, not at every start.
    const { simpleParser: parseMail } = await import('mailparser');
    mail = await parseMail(bytes, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, maxHtmlLengthToParse: 1024 * 1024 });
  } catch (error) {
    throw new ReportRefusal('bad_archive', `The message could not be read (${errorMessage(error)}); send the report attachment itself.`);
  }
  const parts = mail.attachments.filter((a) => a.content.length > 0);
  if (parts.length > limits.maxFiles)
    throw new ReportRefusal('too_many_files', `The message has ${parts.length} attachments; at most ${limits.maxFiles} are read.`);
  const outcomes: UnpackOutcome[] = [];
  for (const [index, part] of parts.entries()) {
    const partName = part.filename ?? `${name}#${index + 1}`;
    outcomes.push(...(await unpackReport(partName, part.content, { allowMessage: false, limits }, budget)));
  }
  if (outcomes.length === 0 && mail.text && /^\s*(<\?xml|<feedback)/.test(mail.text)) outcomes.push({ name, bytes: Buffer.from(mail.text, 'utf8') });
  if (outcomes.length === 0) throw new ReportRefusal('not_a_report', 'The message carries no report attachment (XML, gzip, zip or JSON).');
  return outcomes;
}

function stripSuffix(name: string, suffix: string): string {
  return name.toLowerCase().endsWith(suffix) ? name.slice(0, -suffix.length) : name;
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
