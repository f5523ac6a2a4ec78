/**
 * The weights of the deliverability grade and the score each letter needs (docs/grade.md).
 * A part's weight is its share of a perfect 100; a part that could not be scored leaves the total
 * and the other parts' weights are scaled up to fill it (never a made-up score).
 */
export const GRADE_PARTS = ['spf', 'dkim', 'dmarc', 'mx', 'blacklists', 'domain_age'] as const;
export type GradePart = (typeof GRADE_PARTS)[number];

/** One value per part, computed in GRADE_PARTS order (so the keys and any side effects follow it). */
export function perPart<V>(value: (part: GradePart) => V): Record<GradePart, V> {
  return { spf: value('spf'), dkim: value('dkim'), dmarc: value('dmarc'), mx: value('mx'), blacklists: value('blacklists'), domain_age: value('domain_age') };
}

/** Each part's key in the answer's breakdown and checks: the GraphQL field's name (GradeBreakdown, GradeChecks). */
export const PART_FIELDS = {
  spf: 'spf',
  dkim: 'dkim',
  dmarc: 'dmarc',
  mx: 'mx',
  blacklists: 'blacklists',
  domain_age: 'domainAge',
} as const satisfies Record<GradePart, string>;

/** One value per part, keyed by its field name in the answer. */
export type PerPartField<V> = { readonly [P in GradePart as (typeof PART_FIELDS)[P]]: V };

/** A per-part record as the answer gives it (GRADE_PARTS order). */
export function byPartField<V>(values: Readonly<Record<GradePart, V>>): PerPartField<V> {
  return { spf: values.spf, dkim: values.dkim, dmarc: values.dmarc, mx: values.mx, blacklists: values.blacklists, domainAge: values.domain_age };
}

/**
 * DMARC weighs most because Gmail and Yahoo have required it of bulk senders since February 2024
 * and it is what stops spoofing; SPF and DKIM are the two authentications DMARC aligns on;
 * blacklists decide whether mail arrives at all but are usually clean; MX and domain age are
 * receiver heuristics for "is this a real, established sender".
 */
export const PART_WEIGHTS: Readonly<Record<GradePart, number>> = {
  spf: 20,
  dkim: 20,
  dmarc: 25,
  mx: 10,
  blacklists: 15,
  domain_age: 10,
};

export const GRADES = ['A', 'B', 'C', 'D', 'F'] as const;
export type Grade = (typeof GRADES)[number];

/** The lowest score (0-100, rounded) each letter needs before caps apply. */
const MINIMUM_SCORE: ReadonlyArray<readonly [Grade, number]> = [
  ['A', 90],
  ['B', 80],
  ['C', 70],
  ['D', 60],
  ['F', 0],
];

export function letterForScore(score: number): Grade {
  for (const [grade, minimum] of MINIMUM_SCORE) if (score >= minimum) return grade;
  return 'F';
}

/** The worse of two letters (a cap can only lower a grade). */
export function worseGrade(a: Grade, b: Grade): Grade {
  return GRADES.indexOf(a) >= GRADES.indexOf(b) ? a : b;
}
