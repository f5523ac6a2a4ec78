import type { ServiceConfig } from '../../config/settings.js';

/** The forwarded domain's certificate row (db/forwarding-certificates.ts), as far as the setup tells it. */
export interface CertificateState {
  readonly not_after: Date | string | null;
  readonly last_error: string | null;
  readonly retry_at: Date | string | null;
  /** null while only queued or failed. */
  readonly issued_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The sentence the setup's forwarding line ends with once the A record points at the listener:
 * whether a visitor typing https:// is forwarded, and if not yet, why and what happens next.
 */
export function httpsSentence(mode: ServiceConfig['forwardHttps'], state: CertificateState | undefined, live: boolean, now: Date): string {
  if (mode === 'off')
    return 'HTTPS is off: this service obtains no certificates for forwarded domains, so only http:// addresses forward (the operator turns it on with ACME_DIRECTORY_URL).';
  if (mode === 'certificate') return "HTTPS is served with the operator's certificate.";
  const failure = state?.last_error
    ? ` The last attempt failed (${state.last_error})${state.retry_at ? `; it is tried again at ${iso(state.retry_at)}` : ''}.`
    : '';
  if (state?.not_after && state.issued_at) {
    if (new Date(state.not_after).getTime() > now.getTime())
      return `HTTPS is on: the domain's certificate is valid until ${iso(state.not_after)} and is renewed before then.${failure}`;
    return `HTTPS has lapsed: the domain's certificate expired at ${iso(state.not_after)}, so https:// addresses fail and http:// addresses still forward.${failure}`;
  }
  if (!live) return 'HTTPS is pending: the domain gets its own certificate once it is live; until then http:// addresses forward.';
  return `HTTPS is pending: the domain's certificate is being obtained; until then http:// addresses forward.${failure}`;
}
