import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRefusal } from '../../clients/http/address-refusal.js';

export type EndpointAddress = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; detail: string };

/**
 * Where a webhook endpoint may be reached: https on port 443 (http and other ports only where private
 * addresses are allowed, for tests), on a host whose every address is public. The checks' SSRF rule (address-refusal.ts) applies:
 * a customer's endpoint must not make this service post into its own network. Delivery connects to
 * the address vetted here, so a second resolution cannot point elsewhere.
 */
export async function vetEndpoint(raw: string, allowPrivate: boolean): Promise<EndpointAddress> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, detail: `"${raw.slice(0, 100)}" is not a URL; send an https:// address such as https://example.com/hooks.` };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { ok: false, detail: `A webhook endpoint must be an https:// address, not ${url.protocol}//; serve it over TLS.` };
  }
  // Port 443 only (the URL drops a written :443): an endpoint on any port would let a customer use our
  // deliveries to probe which ports answer. Tests' local receivers listen on a free port, so the rule
  // is lifted with the private-address one (WEBHOOK_ALLOW_PRIVATE_ADDRESSES, tests only).
  if (url.port !== '' && !allowPrivate) {
    return { ok: false, detail: `A webhook endpoint must be on port 443 (https), not ${url.port}; drop the port from the address.` };
  }
  if (url.username || url.password)
    return { ok: false, detail: 'A webhook endpoint must not carry a user name or password; check the signature header instead.' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true });
    } catch {
      return { ok: false, detail: `${host} does not resolve to an address; check the endpoint's host name.` };
    }
  }
  if (addresses.length === 0) return { ok: false, detail: `${host} does not resolve to an address; check the endpoint's host name.` };
  if (!allowPrivate) {
    for (const a of addresses) {
      const refusal = addressRefusal(a.address);
      if (refusal)
        return {
          ok: false,
          detail: `${host} resolves to ${a.address}, which is not a public address (${refusal}); webhook endpoints must be reachable on the internet.`,
        };
    }
  }
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
