import type { CheckDnssec } from './dns/dnssec-tally.js';

/** The common shape of every public check's answer (issue 3: "Every check's answer"). */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'error';
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  readonly severity: Severity;
  /** Stable, snake_case, documented in docs/checks.md. */
  readonly code: string;
  /** A sentence a person understands, saying what to change where there is something to change. */
  readonly message: string;
}

export interface CheckResultBase {
  readonly status: CheckStatus;
  readonly summary: string;
  readonly findings: readonly Finding[];
  /**
   * The DNSSEC status of the DNS answers the check used (null when it asked none). Set on every
   * door's answer by resolvers/limits/run-bounded-check.ts, which sees the check's lookups; a check
   * itself leaves it out.
   */
  readonly dnssec?: CheckDnssec | null;
}

/** pass when nothing is wrong, warn on warnings, fail on errors; `error` is reserved for failed lookups. */
export function statusFromFindings(findings: readonly Finding[]): CheckStatus {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  if (findings.some((f) => f.severity === 'warning')) return 'warn';
  return 'pass';
}
