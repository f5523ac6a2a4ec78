import { GRADE_PARTS, GRADES } from './grade-weights.js';
import type { Grade, GradePart } from './grade-weights.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { partScore } from './part-assessment.js';

export interface DeliverabilityFix {
  readonly part: GradePart;
  readonly code: string;
  /** Points (0-100 scale, one decimal) the total score gains from this fix alone. */
  readonly points: number;
  readonly fix: string;
  /** The grade this problem caps the answer at while it stands, or null. */
  readonly capsGradeAt: Grade | null;
}

/**
 * One fix per deduction of a scored part, worth what fixing it alone adds to the total score: the
 * part's score with and without it (a part never goes below 0, so a deduction hidden under a bigger
 * one may be worth less than its size), times the part's renormalised weight. Ordered by points,
 * then by the cap it lifts (F first), then by part order. Parts that were not scored give no fixes:
 * we do not know what is wrong with them.
 */
export function orderFixes(
  parts: Readonly<Record<GradePart, PartAssessment>>,
  effectiveWeights: Readonly<Record<GradePart, number | null>>,
): DeliverabilityFix[] {
  const fixes: DeliverabilityFix[] = [];
  for (const part of GRADE_PARTS) {
    const assessment = parts[part];
    const weight = effectiveWeights[part];
    if (!assessment.scored || weight === null) continue;
    const now = partScore(assessment.deductions);
    assessment.deductions.forEach((d: Deduction, i) => {
      const without = partScore(assessment.deductions.filter((_, j) => j !== i));
      fixes.push({ part, code: d.code, points: Math.round((without - now) * weight * 10) / 10, fix: d.fix, capsGradeAt: d.cap ?? null });
    });
  }
  const capRank = (g: Grade | null): number => (g === null ? -1 : GRADES.indexOf(g));
  return fixes.sort(
    (a, b) => b.points - a.points || capRank(b.capsGradeAt) - capRank(a.capsGradeAt) || GRADE_PARTS.indexOf(a.part) - GRADE_PARTS.indexOf(b.part),
  );
}
