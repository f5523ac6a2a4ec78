import { DomainError } from '../../domain-error.js';
import { checkBlacklist } from '../blacklist/check-blacklist.js';
import type { CheckResultBase, CheckStatus, Finding } from '../check-result.js';
import { checkDkim } from '../dkim/check-dkim.js';
import { checkDmarc } from '../dmarc/check-dmarc.js';
import { checkDomainExpiry } from '../domain-expiry/check-domain-expiry.js';
import type { FullCheckContext } from '../full-check-context.js';
import { normalizeDomain } from '../normalize-domain.js';
import { checkSpf } from '../spf/check-spf.js';
import { UNCHECKED_WEIGHT_LIMIT, combineParts } from './combine-parts.js';
import type { AppliedCap, BreakdownEntry } from './combine-parts.js';
import { GRADE_PARTS, byPartField, perPart } from './grade-weights.js';
import type { Grade, GradePart, PerPartField } from './grade-weights.js';
import { inspectMailExchangers } from './inspect-mail-exchangers.js';
import { orderFixes } from './order-fixes.js';
import type { DeliverabilityFix } from './order-fixes.js';
import type { PartAssessment } from './part-assessment.js';
import { notScored } from './part-assessment.js';
import { scoreBlacklists } from './score-blacklists.js';
import { scoreDkim } from './score-dkim.js';
import { scoreDmarc } from './score-dmarc.js';
import { scoreDomainAge } from './score-domain-age.js';
import { scoreMx } from './score-mx.js';
import { scoreSpf } from './score-spf.js';

export type { BreakdownEntry, AppliedCap } from './combine-parts.js';
export type { DeliverabilityFix } from './order-fixes.js';
export type { Grade, GradePart } from './grade-weights.js';

export interface CheckDeliverabilityInput {
  readonly domain: string;
}

/** The status and summary of one check the grade ran; the check itself (by name) gives the details. */
export interface DeliverabilitySubCheck {
  readonly check: 'check-spf' | 'check-dkim' | 'check-dmarc' | 'check-dns' | 'check-blacklist' | 'check-domain-expiry';
  readonly status: CheckStatus;
  readonly summary: string;
}

export interface CheckDeliverabilityAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode?: string;
  /**
   * A-F after caps; null when the parts whose lookups failed carry 30% of the weight or more
   * (unchecked_weight), or no part could be scored: then status is error and the summary names the
   * failed lookups.
   */
  readonly grade: Grade | null;
  /** 0-100, the weighted mean over the parts that were scored; null when grade is. */
  readonly score: number | null;
  /** Weight (out of 100) of the parts whose lookups failed; at 30 or more there is no grade (docs/grade.md). */
  readonly uncheckedWeight: number;
  readonly breakdown: PerPartField<BreakdownEntry>;
  /** Caps in force, lowest grade first (docs/grade.md lists them). */
  readonly caps: readonly AppliedCap[];
  /** Parts left out of the score because their lookups failed or the evidence could not tell. */
  readonly notScored: readonly GradePart[];
  /** Most points first. */
  readonly fixes: readonly DeliverabilityFix[];
  readonly checks: PerPartField<DeliverabilitySubCheck>;
}

const CHECK_NAMES: Readonly<Record<GradePart, DeliverabilitySubCheck['check']>> = {
  spf: 'check-spf',
  dkim: 'check-dkim',
  dmarc: 'check-dmarc',
  mx: 'check-dns',
  blacklists: 'check-blacklist',
  domain_age: 'check-domain-expiry',
};

const PART_NAMES: Readonly<Record<GradePart, string>> = {
  spf: 'SPF',
  dkim: 'DKIM',
  dmarc: 'DMARC',
  mx: 'MX',
  blacklists: 'blacklists',
  domain_age: 'domain age',
};

interface PartRun {
  readonly assessment: PartAssessment;
  readonly status: CheckStatus;
  readonly summary: string;
}

/**
 * Runs one check and scores it. A check that throws (which a check should not do for a DNS or
 * registry failure) leaves its part not scored instead of failing the whole grade.
 */
async function runPart<A extends { readonly status: CheckStatus; readonly summary: string }>(
  part: GradePart,
  run: () => Promise<A>,
  score: (answer: A) => PartAssessment,
): Promise<PartRun> {
  try {
    const answer = await run();
    return { assessment: score(answer), status: answer.status, summary: answer.summary };
  } catch (error) {
    const why = error instanceof DomainError ? error.detail : 'the check stopped on an unexpected error';
    const summary = `The ${PART_NAMES[part]} check could not be completed: ${why}`;
    return { assessment: notScored('error', `Not scored: ${summary}`), status: 'error', summary };
  }
}

function findingsFrom(parts: Readonly<Record<GradePart, PartAssessment>>, caps: readonly AppliedCap[]): Finding[] {
  const findings: Finding[] = [];
  for (const part of GRADE_PARTS) {
    const p = parts[part];
    if (!p.scored) {
      findings.push({ severity: 'warning', code: 'part_not_scored', message: `${PART_NAMES[part]} was not scored and left out of the score. ${p.detail}` });
      continue;
    }
    for (const d of p.deductions) {
      const severe = d.fraction >= 0.5 || (d.cap !== undefined && d.cap !== 'B');
      findings.push({ severity: severe ? 'error' : 'warning', code: d.code, message: `${d.problem} ${d.fix}` });
    }
  }
  for (const cap of caps.filter((c) => c.part === 'spf_and_dkim')) {
    findings.push({ severity: 'error', code: cap.code, message: `${cap.reason} Set up both SPF and DKIM.` });
  }
  return findings;
}

/** The parts whose lookups failed, with what failed, for the answer that withholds the grade. */
function failedLookups(parts: Readonly<Record<GradePart, PartAssessment>>): { names: string; details: string } {
  const failed = GRADE_PARTS.filter((p) => !parts[p].scored && parts[p].status === 'error');
  const names = failed.map((p) => PART_NAMES[p]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
  return { names: list, details: failed.map((p) => parts[p].detail.replace(/^Not scored: /, '').replace(/\.?$/, '.')).join(' ') };
}

function summarize(
  domain: string,
  score: number | null,
  grade: Grade | null,
  uncapped: Grade | null,
  caps: readonly AppliedCap[],
  notScoredParts: readonly GradePart[],
  fixes: readonly DeliverabilityFix[],
  withheld: { weight: number; names: string; details: string } | null,
): string {
  if (withheld) {
    return `No grade for ${domain}: the lookups for ${withheld.names} failed, and those parts carry ${withheld.weight}% of the grade's weight (from ${UNCHECKED_WEIGHT_LIMIT}% there is no grade), so a letter would describe the DNS outage rather than the domain. ${withheld.details} Try again once ${domain}'s DNS answers.`;
  }
  if (score === null || grade === null) {
    return `No part of the grade for ${domain} could be scored because every lookup failed, so there is no grade; try again.`;
  }
  let sentence = `${domain} grades ${grade} (${score}/100)`;
  const binding = caps[0];
  const top = fixes[0];
  if (binding && grade !== uncapped) {
    sentence += `, capped at ${binding.grade} from ${uncapped}: ${binding.reason.replace(/\.$/, '')}`;
  } else if (top && top.points > 0) {
    sentence += `; fixing ${PART_NAMES[top.part]} adds the most (${top.points} points)`;
  }
  if (notScoredParts.length > 0) {
    const names = notScoredParts.map((p) => PART_NAMES[p]).join(', ');
    sentence += `; ${names} ${notScoredParts.length === 1 ? 'was' : 'were'} not scored (lookup failed or undetermined), so the score is over the other parts' weights`;
  }
  return `${sentence}.`;
}

function statusFor(grade: Grade | null, notScoredParts: readonly GradePart[]): CheckStatus {
  if (grade === null) return 'error';
  if (grade === 'D' || grade === 'F') return 'fail';
  // An A with parts left unscored is not a clean pass: part of the picture is missing.
  if (grade === 'B' || grade === 'C' || notScoredParts.length > 0) return 'warn';
  return 'pass';
}

/**
 * The A-F cold-email readiness grade (docs/grade.md): SPF, DKIM (common selectors scanned), DMARC,
 * MX, blacklists and domain age, all run at once on the same request context, so their shared
 * questions (the MX set, the MX hosts' addresses) go to DNS once. Each part is scored 0..1 and
 * weighted; a part whose lookup failed is not scored and the others' weights are renormalised;
 * caps lower the letter for problems that sink cold email whatever the rest looks like.
 */
export async function checkDeliverability(input: CheckDeliverabilityInput, ctx: FullCheckContext): Promise<CheckDeliverabilityAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const [spf, dkim, dmarc, mx, blacklists, domainAge] = await Promise.all([
    runPart('spf', () => checkSpf({ domain }, ctx), scoreSpf),
    runPart('dkim', () => checkDkim({ domain }, ctx), scoreDkim),
    runPart('dmarc', () => checkDmarc({ domain }, ctx), scoreDmarc),
    runPart('mx', () => inspectMailExchangers(ctx.dns, domain), scoreMx),
    runPart('blacklists', () => checkBlacklist({ input: domain }, ctx), scoreBlacklists),
    runPart('domain_age', () => checkDomainExpiry({ domain }, ctx), scoreDomainAge),
  ]);
  const runs: Record<GradePart, PartRun> = { spf, dkim, dmarc, mx, blacklists, domain_age: domainAge };
  const parts = perPart((p) => runs[p].assessment);
  const combined = combineParts(parts);
  const fixes = orderFixes(parts, combined.effectiveWeights);
  const withheld = combined.withheld ? { weight: combined.uncheckedWeight, ...failedLookups(parts) } : null;
  const findings = findingsFrom(parts, combined.caps);
  if (withheld) {
    findings.unshift({
      severity: 'error',
      code: 'grade_withheld',
      message: `The lookups for ${withheld.names} failed (${withheld.weight}% of the weight), so there is no grade. ${withheld.details} Check that ${domain}'s name servers answer (and, if it is signed, that its DNSSEC signatures are valid), then try again.`,
    });
  }
  const checks = perPart((p): DeliverabilitySubCheck => ({ check: CHECK_NAMES[p], status: runs[p].status, summary: runs[p].summary }));
  return {
    status: statusFor(combined.grade, combined.notScored),
    summary: summarize(domain, combined.score, combined.grade, combined.uncappedGrade, combined.caps, combined.notScored, fixes, withheld),
    findings,
    domain,
    ...(unicode ? { domainUnicode: unicode } : {}),
    grade: combined.grade,
    score: combined.score,
    uncheckedWeight: combined.uncheckedWeight,
    breakdown: byPartField(combined.breakdown),
    caps: combined.caps,
    notScored: combined.notScored,
    fixes,
    checks: byPartField(checks),
  };
}
