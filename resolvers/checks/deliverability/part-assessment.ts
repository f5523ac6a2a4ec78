import type { CheckStatus } from '../check-result.js';
import type { Grade } from './grade-weights.js';

/**
 * One thing that costs a part some of its marks, with what to do about it. `fraction` is the share
 * of the part's weight it costs (0..1]; `cap` is the grade the whole answer cannot exceed while the
 * problem stands (docs/grade.md lists every cap).
 */
export interface Deduction {
  readonly code: string;
  readonly fraction: number;
  /** What is wrong, as a sentence. */
  readonly problem: string;
  /** What to change, as a sentence. */
  readonly fix: string;
  readonly cap?: Grade;
}

/**
 * How one part of the grade came out. A part is scored (its score is 1 minus its deductions) or
 * not scored: its lookup failed or the evidence cannot tell, and then it has no score at all.
 */
export type PartAssessment =
  | { readonly scored: true; readonly status: CheckStatus; readonly detail: string; readonly deductions: readonly Deduction[] }
  | { readonly scored: false; readonly status: CheckStatus; readonly detail: string };

export function scoredPart(status: CheckStatus, detail: string, deductions: readonly Deduction[] = []): PartAssessment {
  return { scored: true, status, detail, deductions };
}

export function notScored(status: CheckStatus, detail: string): PartAssessment {
  return { scored: false, status, detail };
}

/** The part's score 0..1 from its deductions: never below 0, whatever they add up to. */
export function partScore(deductions: readonly Deduction[]): number {
  return Math.max(0, 1 - deductions.reduce((sum, d) => sum + d.fraction, 0));
}
