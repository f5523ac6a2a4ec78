/**
 * IANA's RDAP bootstrap registry for domains (RFC 9224): which RDAP service answers for which TLD.
 * This is static registry data, not a check result: it is loaded once per URL, refreshed when a day
 * old (IANA republishes it rarely), and a failed refresh keeps the previous copy. Check answers
 * themselves are never cached.
 */
interface BootstrapCopy {
  readonly loadedAt: number;
  /** Lower-case label sequence ("com", "co.uk") to service base URLs. */
  readonly services: ReadonlyMap<string, readonly string[]>;
}

const REFRESH_MS = 24 * 60 * 60 * 1000;

class RdapBootstrapRegistry {
  private readonly copies = new Map<string, BootstrapCopy>();
  private readonly loading = new Map<string, Promise<BootstrapCopy>>();

  /** The RDAP base URLs for a domain (longest matching entry), https first; [] when its TLD has no RDAP. */
  async serversFor(domain: string, bootstrapUrl: string, now: Date, timeoutMs: number): Promise<readonly string[]> {
    const copy = await this.copy(bootstrapUrl, now, timeoutMs);
    const labels = domain.toLowerCase().split('.');
    for (let i = 0; i < labels.length; i += 1) {
      const urls = copy.services.get(labels.slice(i).join('.'));
      if (urls) return [...urls].sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
    }
    return [];
  }

  private async copy(url: string, now: Date, timeoutMs: number): Promise<BootstrapCopy> {
    const current = this.copies.get(url);
    if (current && now.getTime() - current.loadedAt < REFRESH_MS) return current;
    let pending = this.loading.get(url);
    if (!pending) {
      pending = load(url, now, timeoutMs).finally(() => this.loading.delete(url));
      this.loading.set(url, pending);
    }
    try {
      const fresh = await pending;
      this.copies.set(url, fresh);
      return fresh;
    } catch (error) {
      if (current) return current;
      throw error;
    }
  }
}

async function load(url: string, now: Date, timeoutMs: number): Promise<BootstrapCopy> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`the RDAP bootstrap file ${url} answered HTTP ${response.status}`);
  const body: unknown = await response.json();
  const listed = typeof body === 'object' && body !== null && 'services' in body ? body.services : undefined;
  if (!Array.isArray(listed)) throw new Error(`the RDAP bootstrap file ${url} has no "services" list`);
  const entries: unknown[] = listed;
  const services = new Map<string, string[]>();
  for (const service of entries) {
    if (!Array.isArray(service) || !Array.isArray(service[0]) || !Array.isArray(service[1])) continue;
    const urls = (service[1] as unknown[]).filter((u): u is string => typeof u === 'string');
    for (const entry of service[0] as unknown[]) if (typeof entry === 'string') services.set(entry.toLowerCase(), urls);
  }
  return { loadedAt: now.getTime(), services };
}

/** One registry for the process (module scope on purpose: registry data, shared by all requests). */
export const rdapBootstrap = new RdapBootstrapRegistry();
