/**
 * Google's answer on whether a domain belongs to a Google Workspace (or Cloud Identity) account.
 * 'managed': a tenant exists; 'unmanaged': Google says no tenant uses the domain; 'unknown': no
 * usable answer. Tests replace it; nothing else in the check talks to Google.
 */
export interface GoogleTenancyProbe {
  probe(domain: string): Promise<'managed' | 'unmanaged' | 'unknown'>;
}

/**
 * The public sign-in discovery page: https://www.google.com/a/<domain>/ServiceLogin sends a managed
 * domain on to Google's account sign-in (a redirect to accounts.google.com), and answers an
 * unmanaged one with a page saying the domain "isn't using" Google's services. Any other answer,
 * a network error or the timeout gives 'unknown', never a guess.
 */
export function createGoogleTenancyProbe(options: { readonly timeoutMs?: number; readonly fetch?: typeof fetch } = {}): GoogleTenancyProbe {
  const timeoutMs = options.timeoutMs ?? 4000;
  const fetchFn = options.fetch ?? fetch;
  return {
    async probe(domain) {
      try {
        const response = await fetchFn(`https://www.google.com/a/${encodeURIComponent(domain)}/ServiceLogin?continue=https%3A%2F%2Fmail.google.com%2F`, {
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
          headers: { 'accept-language': 'en' },
        });
        const location = response.headers.get('location') ?? '';
        if (response.status >= 300 && response.status < 400) {
          return location.startsWith('https://accounts.google.com/') ? 'managed' : 'unknown';
        }
        if (response.status === 200) {
          const body = (await response.text()).slice(0, 200_000);
          if (/isn(?:'|&#39;|’)t using (?:Google Workspace|G Suite|Google Apps)/i.test(body)) return 'unmanaged';
        }
        return 'unknown';
      } catch {
        return 'unknown';
      }
    },
  };
}
