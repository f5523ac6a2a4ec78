import { isIP } from 'node:net';

/**
 * Where the payment processor's card page sends the person afterwards. The caller's `success_url`
 * (or `cancel_url`) is followed only when it is given and reachable; otherwise the person lands on
 * the portal, which confirms the card was saved ({api_url}/portal/card-saved) or that it was not
 * ({api_url}/portal/billing?card=cancelled).
 *
 * "Reachable" is judged from the address alone, by where the person's browser evidently is: the
 * service never fetches the URL (that would let any API caller make it ask hosts of their choosing:
 * server-side request forgery), and a probe from here would say nothing about the person's browser.
 * A URL is followed when
 * - its host is the service's own host (any port, http or https): the browser just reached it to
 *   open the card page; or
 * - the service is on a loopback address and so is the URL: the browser is on this machine; or
 * - it is https on a public DNS name: not an IP address, not a single label, and not a name reserved
 *   never to be anyone's site (RFC 2606, 6761, 6762, 8375: example.com/.net/.org, .example, .test,
 *   .invalid, .localhost, .local, .home.arpa, and ICANN's .internal).
 * So the README's https://example.com/... and a plain-http page on another host land on the portal.
 */

const RESERVED_SUFFIXES = ['example', 'test', 'invalid', 'localhost', 'local', 'internal', 'home.arpa', 'example.com', 'example.net', 'example.org'];

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

function isPublicName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !host.includes('.')) return false;
  return !RESERVED_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/** Whether the person's browser is sent to `url` (already checked to be an absolute http(s) URL). */
export function isReachableReturnUrl(url: URL, apiUrl: string): boolean {
  const service = new URL(apiUrl);
  if (url.hostname.toLowerCase() === service.hostname.toLowerCase()) return true;
  if (isLoopback(service.hostname) && isLoopback(url.hostname)) return true;
  return url.protocol === 'https:' && isPublicName(url.hostname);
}

/** The portal's own landing pages, used when the caller gave no reachable URL. */
export function portalCardReturnUrls(apiUrl: string): { readonly saved: string; readonly cancelled: string } {
  let base = apiUrl;
  while (base.endsWith('/')) base = base.slice(0, -1);
  return { saved: `${base}/portal/card-saved`, cancelled: `${base}/portal/billing?card=cancelled` };
}
