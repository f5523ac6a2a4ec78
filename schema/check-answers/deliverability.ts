import { builder } from '../builder.js';
import type { checkDeliverability } from '../../resolvers/checks/deliverability/check-deliverability.js';
import { GRADE_PARTS, GRADES } from '../../resolvers/checks/deliverability/grade-weights.js';
import { CheckAnswer, CheckStatus, type AnswerOf } from './common.js';
import { absentWhenNull } from '../wire-field-extension.js';

// check-deliverability: its answer, each object over the part of the resolver's return type it mirrors.
type Deliverability = AnswerOf<typeof checkDeliverability>;

export const Grade = builder.enumType('Grade', { description: 'A letter grade.', values: GRADES });
export const GradePart = builder.enumType('GradePart', { description: 'A part of the grade.', values: GRADE_PARTS });
export const CapPart = builder.enumType('CapPart', { description: 'What a grade cap comes from.', values: [...GRADE_PARTS, 'spf_and_dkim'] });
export const BreakdownEntry = builder.objectRef<Deliverability['breakdown']['spf']>('BreakdownEntry').implement({
  description: "One part's contribution to the grade.",
  fields: (t) => ({
    score: t.exposeFloat('score', { nullable: true }),
    weight: t.exposeFloat('weight'),
    effectiveWeight: t.exposeFloat('effectiveWeight', { nullable: true }),
    points: t.exposeFloat('points', { nullable: true }),
    status: t.expose('status', { type: CheckStatus }),
    detail: t.exposeString('detail'),
    cap: t.expose('cap', { type: Grade, nullable: true }),
  }),
});
export const GradeBreakdown = builder.objectRef<Deliverability['breakdown']>('GradeBreakdown').implement({
  description: "Each part's contribution.",
  fields: (t) => ({
    spf: t.expose('spf', { type: BreakdownEntry }),
    dkim: t.expose('dkim', { type: BreakdownEntry }),
    dmarc: t.expose('dmarc', { type: BreakdownEntry }),
    mx: t.expose('mx', { type: BreakdownEntry }),
    blacklists: t.expose('blacklists', { type: BreakdownEntry }),
    domainAge: t.expose('domainAge', { type: BreakdownEntry }),
  }),
});
export const AppliedCap = builder.objectRef<Deliverability['caps'][number]>('AppliedCap').implement({
  description: 'A cap on the letter and why.',
  fields: (t) => ({
    part: t.expose('part', { type: CapPart }),
    grade: t.expose('grade', { type: Grade }),
    code: t.exposeString('code'),
    reason: t.exposeString('reason'),
  }),
});
export const DeliverabilityFix = builder.objectRef<Deliverability['fixes'][number]>('DeliverabilityFix').implement({
  description: 'A fix and the points it gains.',
  fields: (t) => ({
    part: t.expose('part', { type: GradePart }),
    code: t.exposeString('code'),
    points: t.exposeFloat('points'),
    fix: t.exposeString('fix'),
    capsGradeAt: t.expose('capsGradeAt', { type: Grade, nullable: true }),
  }),
});
export const DeliverabilitySubCheck = builder.objectRef<Deliverability['checks']['spf']>('DeliverabilitySubCheck').implement({
  description: 'The status and summary of one check the grade ran.',
  fields: (t) => ({
    check: t.exposeString('check', { description: "The check's name: check-spf, check-dkim, check-dmarc, check-dns, check-blacklist or check-domain-expiry." }),
    status: t.expose('status', { type: CheckStatus }),
    summary: t.exposeString('summary'),
  }),
});
export const GradeChecks = builder.objectRef<Deliverability['checks']>('GradeChecks').implement({
  description: 'The check run for each part.',
  fields: (t) => ({
    spf: t.expose('spf', { type: DeliverabilitySubCheck }),
    dkim: t.expose('dkim', { type: DeliverabilitySubCheck }),
    dmarc: t.expose('dmarc', { type: DeliverabilitySubCheck }),
    mx: t.expose('mx', { type: DeliverabilitySubCheck }),
    blacklists: t.expose('blacklists', { type: DeliverabilitySubCheck }),
    domainAge: t.expose('domainAge', { type: DeliverabilitySubCheck }),
  }),
});
export const DeliverabilityAnswer = builder.objectRef<Deliverability>('DeliverabilityAnswer').implement({
  description: 'check-deliverability: A-F grade, breakdown and fixes.',
  interfaces: [CheckAnswer],
  fields: (t) => ({
    domain: t.exposeString('domain'),
    domainUnicode: t.exposeString('domainUnicode', { nullable: true, extensions: absentWhenNull() }),
    grade: t.expose('grade', { type: Grade, nullable: true }),
    score: t.exposeFloat('score', { nullable: true }),
    uncheckedWeight: t.exposeFloat('uncheckedWeight'),
    breakdown: t.expose('breakdown', { type: GradeBreakdown }),
    caps: t.expose('caps', { type: [AppliedCap] }),
    notScored: t.expose('notScored', { type: [GradePart] }),
    fixes: t.expose('fixes', { type: [DeliverabilityFix] }),
    checks: t.expose('checks', { type: GradeChecks }),
  }),
});
