/**
 * Where domains are actually built (mail hosting, DNS, mailboxes). Only the sandbox exists so far,
 * like the sandbox card processor: it builds nothing outside this service.
 */
export interface ProvisioningAdapter {
  readonly kind: 'sandbox';
  /** How long after a placement the build starts (the sandbox waits SANDBOX_BUILD_DELAY_MS). */
  readonly startDelayMs: number;
  /**
   * Whether problems our own DNS checks find stop the domain from going live (needs_attention).
   * The sandbox builds nothing in real DNS, so its domains go live with the findings recorded on them.
   */
  readonly enforcesDns: boolean;
  /** Builds the domain; a refusal is a sentence the customer can act on. */
  provision(domain: { readonly domain: string; readonly forwardTo: string | null }): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** One day of sending figures for a watched domain; the sandbox sends nothing, so they are zeros. */
  dailyFigures(
    domain: string,
    day: string,
  ): Promise<{ sent: number; delivered: number; bounced: number; replied: number; inbox_placed: number; spam_placed: number }>;
}

export function createSandboxAdapter(startDelayMs: number): ProvisioningAdapter {
  return {
    kind: 'sandbox',
    startDelayMs,
    enforcesDns: false,
    provision: async () => ({ ok: true }),
    dailyFigures: async () => ({ sent: 0, delivered: 0, bounced: 0, replied: 0, inbox_placed: 0, spam_placed: 0 }),
  };
}
