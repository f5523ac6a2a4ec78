import type { CheckStatus } from '../check-result.js';
import { GRADE_PARTS, GRADES, PART_WEIGHTS, letterForScore, perPart, worseGrade } from './grade-weights.js';
import type { Grade, GradePart } from './grade-weights.js';
import type { PartAssessment } from './part-assessment.js';
import { partScore } from './part-assessment.js';

/** One part of the grade as it goes on the wire. */
export interface BreakdownEntry {
  /** 0..1 (two decimals): the share of the part's weight earned; null when the part was not scored. */
  readonly score: number | null;
  /** The part's nominal weight, out of 100 over all six parts. */
  readonly weight: number;
  /** The weight after renormalising over the parts that were scored (sums to 100); null when not scored. */
  readonly effectiveWeight: number | null;
  /** score x effective_weight: the points this part contributes to the total (one decimal). */
  readonly points: number | null;
  readonly status: CheckStatus;
  readonly detail: string;
  /** The lowest grade a problem in this part caps the answer at, or null. */
  readonly cap: Grade | null;
}

export interface AppliedCap {
  readonly part: GradePart | 'spf_and_dkim';
  readonly grade: Grade;
  readonly code: string;
  readonly reason: string;
}

/**
 * When the parts whose lookups failed carry this share of the weight or more (out of 100), there is
 * no grade: a letter over what is left would describe the outage (a DNSSEC-bogus or lame zone fails
 * SPF, DKIM, DMARC and MX together, 75 points) rather than the domain. 30 is just over the largest
 * single part (DMARC, 25), so one part failing still grades over the rest, and any two of SPF, DKIM
 * and DMARC failing does not (docs/grade.md).
 */
export const UNCHECKED_WEIGHT_LIMIT = 30;

export interface CombinedGrade {
  /** Weight (out of 100) of the parts not scored because their lookups failed. */
  readonly uncheckedWeight: number;
  /** True when unchecked_weight reached UNCHECKED_WEIGHT_LIMIT, so score and grade are withheld (null). */
  readonly withheld: boolean;
  /** 0-100, or null when no part could be scored or the grade was withheld. */
  readonly score: number | null;
  readonly grade: Grade | null;
  /** The letter the score alone earns, before caps. */
  readonly uncappedGrade: Grade | null;
  readonly breakdown: Readonly<Record<GradePart, BreakdownEntry>>;
  /** Every cap in force, the lowest first. */
  readonly caps: readonly AppliedCap[];
  readonly notScored: readonly GradePart[];
  /** Per part: 100 / (sum of the weights of scored parts) x weight, for the fixes' points. */
  readonly effectiveWeights: Readonly<Record<GradePart, number | null>>;
}

const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

const NO_SPF = new Set(['spf_missing', 'spf_multiple_records', 'spf_invalid']);
const NO_DKIM = new Set(['dkim_missing', 'dkim_unusable']);

/** Gmail (and most receivers) reject or junk mail that carries neither SPF nor DKIM. */
function authenticationCap(parts: Readonly<Record<GradePart, PartAssessment>>): AppliedCap | null {
  const codes = (p: PartAssessment): string[] => (p.scored ? p.deductions.map((d) => d.code) : []);
  if (!codes(parts.spf).some((c) => NO_SPF.has(c)) || !codes(parts.dkim).some((c) => NO_DKIM.has(c))) return null;
  return {
    part: 'spf_and_dkim',
    grade: 'F',
    code: 'no_authentication',
    reason: 'The domain has neither a working SPF record nor a DKIM key, so receivers such as Gmail reject or junk its mail.',
  };
}

/**
 * The score is the weighted mean of the scored parts' scores, x 100: a part that was not scored
 * drops out and the others' weights grow to fill its share, so a failed lookup never counts as a
 * zero. The letter comes from the score, then every cap in force can only lower it.
 */
export function combineParts(parts: Readonly<Record<GradePart, PartAssessment>>): CombinedGrade {
  const scored = GRADE_PARTS.filter((p) => parts[p].scored);
  const totalWeight = scored.reduce((sum, p) => sum + PART_WEIGHTS[p], 0);
  const effectiveWeights = perPart((p) => (parts[p].scored ? (PART_WEIGHTS[p] * 100) / totalWeight : null));

  const caps: AppliedCap[] = [];
  const breakdown = perPart((part): BreakdownEntry => {
    const assessment = parts[part];
    const effective = effectiveWeights[part];
    if (!assessment.scored || effective === null) {
      return { score: null, weight: PART_WEIGHTS[part], effectiveWeight: null, points: null, status: assessment.status, detail: assessment.detail, cap: null };
    }
    let cap: Grade | null = null;
    for (const d of assessment.deductions) {
      if (!d.cap) continue;
      caps.push({ part, grade: d.cap, code: d.code, reason: d.problem });
      cap = cap ? worseGrade(cap, d.cap) : d.cap;
    }
    const score = partScore(assessment.deductions);
    return {
      score: round(score, 2),
      weight: PART_WEIGHTS[part],
      effectiveWeight: round(effective, 1),
      points: round(score * effective, 1),
      status: assessment.status,
      detail: assessment.detail,
      cap,
    };
  });
  const both = authenticationCap(parts);
  if (both) caps.push(both);
  caps.sort((a, b) => GRADES.indexOf(b.grade) - GRADES.indexOf(a.grade));

  // Failed lookups, as opposed to evidence that cannot tell (a registry without a creation date).
  const uncheckedWeight = GRADE_PARTS.filter((p) => !parts[p].scored && parts[p].status === 'error').reduce((sum, p) => sum + PART_WEIGHTS[p], 0);
  const notScoredParts = GRADE_PARTS.filter((p) => !parts[p].scored);
  if (scored.length === 0 || uncheckedWeight >= UNCHECKED_WEIGHT_LIMIT) {
    return {
      uncheckedWeight,
      withheld: scored.length > 0,
      score: null,
      grade: null,
      uncappedGrade: null,
      breakdown,
      caps: [],
      notScored: notScoredParts,
      effectiveWeights,
    };
  }
  const score = Math.round(
    scored.reduce((sum, p) => {
      const part = parts[p];
      return sum + (part.scored ? partScore(part.deductions) * (effectiveWeights[p] ?? 0) : 0);
    }, 0),
  );
  const uncapped = letterForScore(score);
  const grade = caps.reduce<Grade>((g, c) => worseGrade(g, c.grade), uncapped);
  return {
    uncheckedWeight,
    withheld: false,
    score,
    grade,
    uncappedGrade: uncapped,
    breakdown,
    caps,
    notScored: notScoredParts,
    effectiveWeights,
  };
}
