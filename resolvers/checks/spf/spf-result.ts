import type { SpfQualifier } from './parse-spf-record.js';

/** The results of check_host() (RFC 7208 2.6). */
export type SpfResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror';

/** 4.6.2: a matching mechanism's qualifier gives the result. */
export function resultOfQualifier(qualifier: SpfQualifier): 'pass' | 'fail' | 'softfail' | 'neutral' {
  switch (qualifier) {
    case '+':
      return 'pass';
    case '-':
      return 'fail';
    case '~':
      return 'softfail';
    case '?':
      return 'neutral';
  }
}

/** RFC 7208 4.6.4: at most 10 terms that cause DNS lookups per check_host() evaluation. */
export const MAX_DNS_LOOKUPS = 10;
/** 4.6.4: at most 10 MX names per mx, 10 PTR names per ptr. */
export const MAX_NAMES_PER_LOOKUP = 10;
/** 4.6.4: lookups answering NXDOMAIN or no data; SHOULD be limited to two. */
export const MAX_VOID_LOOKUPS = 2;

/** Thrown inside an evaluation to end it with permerror or temperror (the result propagates through include). */
export class SpfAbort extends Error {
  constructor(
    readonly result: 'permerror' | 'temperror',
    readonly problem: string,
  ) {
    super(problem);
    this.name = 'SpfAbort';
  }
}
