import { describeStep, nextStep, type RampStep } from './ramp-steps.js';

/** Reports the next step needs: this many days with reports since the current step was taken. */
export const RAMP_MIN_DAYS = 14;
/** And at least this share (percent) of the reported messages passing DMARC (aligned DKIM or SPF). */
export const RAMP_MIN_PASS_RATE = 99;

/** A source whose mail failed DMARC in the window, identified as far as the DNS allows. */
export interface FailingSource {
  readonly sourceIp: string;
  /** Its forward-confirmed PTR name, or null. */
  readonly ptr: string | null;
  /** The sending service its name belongs to (sending-services.ts), or null. */
  readonly service: string | null;
  /** Messages from it that failed DMARC. */
  readonly failed: number;
  /**
   * One of the customer's own senders: the domain's SPF authorizes the address, or it belongs to a
   * service whose include the SPF carries. null when the SPF could not be evaluated (a lookup failed).
   */
  readonly ownSender: boolean | null;
}

export interface RampFigures {
  readonly from: string;
  readonly to: string;
  readonly days: number;
  readonly messages: number;
  readonly passed: number;
}

export interface RampReadiness {
  readonly nextStep: RampStep | null;
  readonly ready: boolean;
  /** What stands in the way of the next step, in a sentence; null when ready or at the top. */
  readonly blockedBy: string | null;
  /** Percent of messages passing DMARC in the window, one decimal; null without messages. */
  readonly passRate: number | null;
}

/** Percent with one decimal, or null for no messages. */
export function passRateOf(messages: number, passed: number): number | null {
  return messages > 0 ? Math.floor((passed / messages) * 1000) / 10 : null;
}

/**
 * Whether the domain may climb to the next step (docs/dmarc-ramp.md): enough days of authenticated
 * reports since the current step, a pass rate of at least RAMP_MIN_PASS_RATE, and no failing source
 * that is one of the customer's own senders (or that could not be told apart from one). Pure: the
 * figures and sources are read by the caller. The first blocker found is the sentence.
 */
export function judgeRampReadiness(domain: string, step: RampStep, figures: RampFigures, failing: readonly FailingSource[]): RampReadiness {
  const next = nextStep(step);
  const passRate = passRateOf(figures.messages, figures.passed);
  const answer = (blockedBy: string | null): RampReadiness => ({ nextStep: next, ready: next !== null && blockedBy === null, blockedBy, passRate });
  if (next === null) return answer(null);
  if (figures.days < RAMP_MIN_DAYS)
    return answer(
      `${domain} has authenticated DMARC reports on ${figures.days} day${figures.days === 1 ? '' : 's'} since ${figures.from}; ${describeStep(next)} needs ${RAMP_MIN_DAYS}, so wait for more reports.`,
    );
  const own = failing.filter((s) => s.ownSender === true);
  if (own.length > 0)
    return answer(
      `Mail from your own sender${own.length === 1 ? '' : 's'} ${own.map(sourceWords).join(', ')} fails DMARC; ${describeStep(next)} would send it to spam or refuse it. Make ${own.length === 1 ? 'it' : 'them'} sign with DKIM for ${domain} (or send with an envelope sender of ${domain}) first.`,
    );
  const unsure = failing.filter((s) => s.ownSender === null);
  if (unsure.length > 0)
    return answer(
      `The SPF of ${domain} could not be evaluated for ${unsure.map(sourceWords).join(', ')} (a lookup failed), so it is not known whether they are your senders; read the ramp again later.`,
    );
  if (passRate !== null && passRate < RAMP_MIN_PASS_RATE)
    return answer(
      `${passRate}% of the ${figures.messages} reported messages pass DMARC since ${figures.from}; ${describeStep(next)} needs at least ${RAMP_MIN_PASS_RATE}%. The failing sources are listed: make each of yours sign with DKIM for ${domain}.`,
    );
  return answer(null);
}

function sourceWords(source: FailingSource): string {
  const name = source.ptr ? ` (${source.ptr}${source.service ? `, ${source.service}` : ''})` : '';
  return `${source.sourceIp}${name}`;
}
