import { mergeDmarc } from '../domains/setup/merge-dmarc.js';

/**
 * The ladder a domain's DMARC policy climbs (docs/dmarc-ramp.md): monitoring, a quarter of failing
 * mail quarantined, all of it quarantined, all of it rejected. Each step is published only when the
 * reports show the one before it harms none of the customer's own mail.
 */
export const RAMP_STEPS = ['none', 'quarantine_25', 'quarantine', 'reject'] as const;
export type RampStep = (typeof RAMP_STEPS)[number];

/** The step a DMARC record stands on: its `p=` and, for quarantine, whether `pct=` spares part of the mail. */
export function stepOf(record: string | null): RampStep {
  if (record === null) return 'none';
  const tags = dmarcTagMap(record);
  const p = tags.get('p');
  const pct = Number(tags.get('pct') ?? '100');
  if (p === 'reject') return 'reject';
  if (p === 'quarantine') return Number.isFinite(pct) && pct < 100 ? 'quarantine_25' : 'quarantine';
  return 'none';
}

/** Whether a stored text is one of the steps. */
export function isRampStep(value: string): value is RampStep {
  return RAMP_STEPS.some((s) => s === value);
}

/** The step after `step`, or null at the top. */
export function nextStep(step: RampStep): RampStep | null {
  return RAMP_STEPS[RAMP_STEPS.indexOf(step) + 1] ?? null;
}

/** The record's policy in words, as the timeline and sentences show it. */
export function describeStep(step: RampStep): string {
  switch (step) {
    case 'none':
      return 'p=none (monitoring only)';
    case 'quarantine_25':
      return 'p=quarantine; pct=25 (a quarter of failing mail to spam)';
    case 'quarantine':
      return 'p=quarantine (failing mail to spam)';
    case 'reject':
      return 'p=reject (failing mail refused)';
  }
}

/**
 * The customer's DMARC record raised to `step`, everything else kept: the tags in their order, every
 * report address (ours added when missing), sp=, alignment, fo= and ruf= as written. Only p= changes,
 * and pct= (set to 25 for the partial step, removed for the full ones, since 100 is its default). The
 * publish refuses any record whose policy would fall (keeps-customer-records.ts), so a lower step is
 * never written by an advance.
 */
export function raiseDmarc(existing: string, step: RampStep, reportAddress: string): string {
  const merged = mergeDmarc(existing, reportAddress);
  const tags = merged
    .split(';')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const policy = step === 'reject' ? 'reject' : step === 'none' ? 'none' : 'quarantine';
  const pAt = tags.findIndex((t) => tagName(t) === 'p');
  if (pAt >= 0) tags[pAt] = `p=${policy}`;
  else tags.splice(1, 0, `p=${policy}`);
  const withoutPct = tags.filter((t) => tagName(t) !== 'pct');
  if (step !== 'quarantine_25') return withoutPct.join('; ');
  const at = withoutPct.findIndex((t) => tagName(t) === 'p');
  withoutPct.splice(at + 1, 0, 'pct=25');
  return withoutPct.join('; ');
}

function tagName(tag: string): string {
  const at = tag.indexOf('=');
  return (at < 0 ? tag : tag.slice(0, at)).trim().toLowerCase();
}

/** The record's tags by lower-case name, values trimmed and in lower case. */
export function dmarcTagMap(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at > 0)
      tags.set(
        part.slice(0, at).trim().toLowerCase(),
        part
          .slice(at + 1)
          .trim()
          .toLowerCase(),
      );
  }
  return tags;
}
