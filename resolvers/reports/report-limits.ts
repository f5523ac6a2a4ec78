/**
 * Caps on what one report file may cost. A report is data from anyone on the internet: every number
 * here bounds memory or time before the bytes are trusted (docs/reports.md, "Safety").
 */
export const REPORT_LIMITS = {
  /** Bytes of one upload or one attachment as received (compressed or not). */
  maxInputBytes: 10 * 1024 * 1024,
  /** Bytes of one report once decompressed, whatever the ratio. */
  maxReportBytes: 20 * 1024 * 1024,
  /** Decompressed bytes may be this many times the compressed ones ... */
  maxRatio: 100,
  /** ... once past this floor (a small, very regular report compresses far better than 100:1). */
  ratioFloorBytes: 1024 * 1024,
  /**
   * Decompressed bytes of everything in one upload or message together: a message's attachments, a
   * zip's entries and a gzip inside either each stay under the caps above, and all of them under this.
   */
  maxUnpackedTotalBytes: 40 * 1024 * 1024,
  /** Files in one zip and attachments in one message. */
  maxFiles: 20,
  /** `<record>` rows in one DMARC report; TLS-RPT policies in one report. */
  maxRecords: 20_000,
  maxTlsPolicies: 1_000,
  /** failure-details of one TLS-RPT policy. */
  maxTlsFailureDetails: 1_000,
} as const;

export type ReportLimits = { readonly [K in keyof typeof REPORT_LIMITS]: number };

/** The decompressed bytes allowed for `compressedBytes` of input: the ratio cap above its floor, never past the absolute cap. */
export function allowedOutputBytes(compressedBytes: number, limits: ReportLimits = REPORT_LIMITS): number {
  return Math.min(limits.maxReportBytes, Math.max(limits.ratioFloorBytes, compressedBytes * limits.maxRatio));
}
