/** Why one report file was not taken: a stable code and a sentence for the sender or the log. */
export class ReportRefusal extends Error {
  constructor(
    readonly code: ReportRefusalCode,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ReportRefusal';
  }
}

export const REPORT_REFUSAL_CODES = [
  'too_large',
  'decompression_bomb',
  'bad_archive',
  'too_many_files',
  'unknown_format',
  'invalid_utf8',
  'dtd_refused',
  'invalid_xml',
  'invalid_json',
  'not_a_report',
  'too_many_records',
  'empty',
] as const;

export type ReportRefusalCode = (typeof REPORT_REFUSAL_CODES)[number];
