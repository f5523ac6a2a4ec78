import type { DnsAnswer } from '../../../clients/dns/dns-types.js';
import { isMissing } from '../../../clients/dns/dns-types.js';
import { dmarcEnforcement } from '../dmarc/dmarc-enforcement.js';
import { looksLikeDmarc, parseDmarcRecord, type DmarcPolicy } from '../dmarc/dmarc-record.js';

export interface BimiDmarcDetail {
  /** The DMARC record at _dmarc.<domain>, or null when there is none. */
  readonly domainRecord: string | null;
  readonly organizationalDomain: string;
  /** The record at _dmarc.<organisational domain> (the same as domain_record for an apex domain). */
  readonly organizationalRecord: string | null;
  /** The policy receivers apply to mail from the domain: its own p=, else the organisational sp= or p=. */
  readonly policy: DmarcPolicy | null;
  /** The organisational domain's subdomain policy (sp=, else p=). */
  readonly subdomainPolicy: DmarcPolicy | null;
  /** pct= of the record that applies (100 when absent). */
  readonly pct: number | null;
  /** What to change, one sentence each; empty when DMARC meets the BIMI requirement. */
  readonly changes: readonly string[];
}

export interface BimiDmarcResult {
  /** Null when a DMARC lookup failed and we cannot tell. */
  readonly enforced: boolean | null;
  readonly detail: BimiDmarcDetail;
  /** The names whose lookup failed. */
  readonly failed: readonly string[];
}

interface Located {
  readonly name: string;
  readonly text: string | null;
  readonly policy: DmarcPolicy | null;
  readonly sp: DmarcPolicy | null;
  readonly pct: number | null;
  readonly problems: readonly string[];
}

/**
 * The BIMI DMARC requirement (draft-brand-indicators-for-message-identification section 7.1 steps
 * 7-9, and section 1: a record must be published for the organisational domain): neither the
 * domain's record nor its organisational domain's record may say p=none or sp=none, and the policy
 * must reach 100% of mail. Each record found is judged with the DMARC check's `dmarcEnforcement`,
 * so both checks agree on what "enforced" means; DMARCbis t=y (test mode) lowers the policy by one
 * step (reject to quarantine, quarantine to none) as RFC 9989 has receivers do.
 */
export function bimiDmarcRequirement(
  domain: string,
  organizationalDomain: string,
  domainAnswer: DnsAnswer<'TXT'>,
  orgAnswer: DnsAnswer<'TXT'>,
): BimiDmarcResult {
  const failed: string[] = [];
  const apex = domain === organizationalDomain;
  const own = locate(`_dmarc.${domain}`, domainAnswer, failed);
  const org = apex ? own : locate(`_dmarc.${organizationalDomain}`, orgAnswer, failed);
  const applied = own.text !== null ? own : org;
  const detail = (changes: string[]): BimiDmarcDetail => ({
    domainRecord: own.text,
    organizationalDomain,
    organizationalRecord: org.text,
    policy: own.text !== null ? own.policy : (org.sp ?? org.policy),
    subdomainPolicy: org.sp ?? org.policy,
    pct: applied.text !== null ? applied.pct : null,
    changes,
  });
  if (failed.length > 0) return { enforced: null, detail: detail([]), failed };

  const changes: string[] = [];
  if (org.text === null) {
    changes.push(`Publish a DMARC record at _dmarc.${organizationalDomain} with p=quarantine or p=reject; BIMI requires one at the organisational domain.`);
  }
  for (const record of apex ? [own] : [own, org]) {
    if (record.text === null) continue;
    changes.push(...record.problems.map((p) => `At ${record.name}: ${p}`));
  }
  return { enforced: changes.length === 0, detail: detail(changes), failed };
}

function locate(name: string, answer: DnsAnswer<'TXT'>, failed: string[]): Located {
  const none: Located = { name, text: null, policy: null, sp: null, pct: null, problems: [] };
  if (!answer.ok) {
    if (!isMissing(answer)) failed.push(name);
    return none;
  }
  const texts = answer.records.map((r) => r.data.join('')).filter(looksLikeDmarc);
  const text = texts[0];
  if (text === undefined) return none;
  if (texts.length > 1) {
    return { ...none, text, problems: [`there are ${texts.length} DMARC records, so receivers apply none of them; keep one with p=quarantine or p=reject.`] };
  }
  const parsed = parseDmarcRecord(text);
  if (!parsed.ok) {
    return { ...none, text, problems: [`the DMARC record is invalid (${parsed.errors[0]?.message ?? 'syntax'}); fix it and use p=quarantine or p=reject.`] };
  }
  const { record } = parsed;
  const lower = (p: DmarcPolicy): DmarcPolicy => (record.t === 'y' ? (p === 'reject' ? 'quarantine' : 'none') : p);
  const policy = lower(record.p);
  const sp = record.sp === '' ? null : lower(record.sp);
  const pctGiven = record.tags.some((t) => t.tag === 'pct');
  const verdict = dmarcEnforcement({ valid: true, policy, subdomainPolicy: sp, pct: pctGiven ? record.pct : null });
  const problems = [...verdict.reasons];
  // dmarcEnforcement names sp=none only once p= is enforcing; BIMI refuses sp=none on its own
  // (section 7.1 step 8), so say both changes at once rather than one per visit.
  if (sp === 'none' && policy === 'none') problems.push('The subdomain policy is sp=none; remove sp= or set it to quarantine or reject.');
  if (record.t === 'y') problems.push('t=y puts the policy in test mode, which lowers it one step; remove t=y.');
  if (parsed.fallback.length > 0 && record.p === 'none') problems.push(parsed.fallback[0]!.message);
  return { name, text, policy, sp, pct: record.pct, problems };
}
