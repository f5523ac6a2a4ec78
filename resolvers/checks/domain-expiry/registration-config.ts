/** Operator settings for the registration lookups, read once at start-up. */
export interface RegistrationConfig {
  /** IANA's RDAP bootstrap file for domains (RFC 9224). RDAP_BOOTSTRAP_URL. */
  readonly rdapBootstrapUrl: string;
  /** WHOIS_SERVER "host:port": every WHOIS question goes there instead of the TLD's own server. */
  readonly whoisServer: { readonly host: string; readonly port: number } | null;
  /** Per HTTP request or WHOIS connection. REGISTRATION_TIMEOUT_MS, default 5000. */
  readonly timeoutMs: number;
  /**
   * CHECKS_ALLOW_PRIVATE_ADDRESSES=1: WHOIS servers learned from IANA may be private addresses
   * (tests only). Configured servers (WHOIS_SERVER, ianaWhois) are trusted and never vetted.
   */
  readonly allowPrivate: boolean;
  /** Where the TLD's WHOIS server is asked for: whois.iana.org:43. Tests point it at a local server. */
  readonly ianaWhois: { readonly host: string; readonly port: number };
  /** Port of the WHOIS servers IANA names: 43 (RFC 3912). Tests point it at a local server. */
  readonly referralPort: number;
}

export const DEFAULT_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

export function registrationConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RegistrationConfig {
  const bootstrap = (env.RDAP_BOOTSTRAP_URL ?? '').trim() || DEFAULT_RDAP_BOOTSTRAP_URL;
  if (!/^https?:\/\//.test(bootstrap)) throw new Error(`RDAP_BOOTSTRAP_URL must be an http(s) URL, not "${bootstrap}".`);
  const rawWhois = (env.WHOIS_SERVER ?? '').trim();
  let whoisServer: RegistrationConfig['whoisServer'] = null;
  if (rawWhois !== '') {
    const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(rawWhois);
    const port = Number(match?.[2] ?? 43);
    if (!match?.[1] || port < 1 || port > 65535) throw new Error(`WHOIS_SERVER must be "host" or "host:port", not "${rawWhois}".`);
    whoisServer = { host: match[1], port };
  }
  const rawTimeout = (env.REGISTRATION_TIMEOUT_MS ?? '').trim();
  const timeoutMs = rawTimeout === '' ? 5000 : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new Error(`REGISTRATION_TIMEOUT_MS must be a whole number of milliseconds, not "${rawTimeout}".`);
  const flag = env.CHECKS_ALLOW_PRIVATE_ADDRESSES?.trim().toLowerCase();
  return {
    rdapBootstrapUrl: bootstrap,
    whoisServer,
    timeoutMs,
    allowPrivate: flag === '1' || flag === 'true',
    ianaWhois: { host: 'whois.iana.org', port: 43 },
    referralPort: 43,
  };
}
