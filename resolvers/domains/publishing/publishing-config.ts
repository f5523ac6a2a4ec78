/** The settings of publishing records through customers' DNS connections, read once at start. */
export interface PublishingConfig {
  /** DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES=1: RFC 2136 servers on loopback and private networks (tests, a private deployment). */
  readonly allowPrivateAddresses: boolean;
  /** CLOUDFLARE_API_BASE: another Cloudflare-compatible API (the tests' fake); unset, Cloudflare's own. */
  readonly cloudflareApiBase: string | null;
  /** DNS_PUBLISH_TIMEOUT_MS (10000): how long one exchange with a DNS server or the Cloudflare API may take. */
  readonly timeoutMs: number;
}

export function publishingConfigFromEnv(env: NodeJS.ProcessEnv): PublishingConfig {
  const allow = (env.DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES ?? '').trim();
  if (allow !== '' && allow !== '0' && allow !== '1') throw new Error(`DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES must be 1, 0 or unset, not "${allow}".`);
  const base = (env.CLOUDFLARE_API_BASE ?? '').trim();
  if (base !== '' && !/^https?:\/\/[^\s/]+/.test(base)) throw new Error(`CLOUDFLARE_API_BASE must be an http(s):// address, not "${base}".`);
  const rawTimeout = (env.DNS_PUBLISH_TIMEOUT_MS ?? '').trim();
  const timeoutMs = rawTimeout === '' ? 10_000 : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000)
    throw new Error(`DNS_PUBLISH_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000, not "${rawTimeout}".`);
  return { allowPrivateAddresses: allow === '1', cloudflareApiBase: base === '' ? null : base.replace(/\/$/, ''), timeoutMs };
}
