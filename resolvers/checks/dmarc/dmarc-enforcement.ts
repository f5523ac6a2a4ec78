import type { DmarcPolicy } from './dmarc-record.js';

/** What the BIMI check needs to know about a DMARC answer. */
export interface DmarcEnforcementInput {
  readonly valid: boolean;
  readonly policy: DmarcPolicy | null;
  readonly subdomainPolicy: DmarcPolicy | null;
  readonly pct: number | null;
}

export interface DmarcEnforcement {
  /** True when the policy is quarantine or reject, applied to 100% of mail, and sp is not none. */
  readonly enforced: boolean;
  /** Sentences saying what keeps the policy from being enforced; empty when enforced. */
  readonly reasons: readonly string[];
}

/**
 * The DMARC enforcement large mailbox providers require before they show a BIMI logo (BIMI draft
 * section 4.4 / provider requirements): p=quarantine or p=reject, pct=100 (no sampling), and a
 * subdomain policy that is not none.
 */
export function dmarcEnforcement(result: DmarcEnforcementInput): DmarcEnforcement {
  const reasons: string[] = [];
  if (!result.valid || result.policy === null) {
    reasons.push('There is no valid DMARC record; publish one with p=quarantine or p=reject.');
    return { enforced: false, reasons };
  }
  if (result.policy === 'none') reasons.push('The DMARC policy is p=none; set p=quarantine or p=reject.');
  if ((result.pct ?? 100) < 100) reasons.push(`The DMARC policy applies to only ${result.pct}% of mail; remove pct= or set pct=100.`);
  if (result.subdomainPolicy === 'none' && result.policy !== 'none')
    reasons.push('The subdomain policy is sp=none; remove sp= or set it to quarantine or reject.');
  return { enforced: reasons.length === 0, reasons };
}
