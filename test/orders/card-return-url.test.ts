import { describe, expect, it } from 'vitest';
import { isReachableReturnUrl, portalCardReturnUrls } from '../../resolvers/orders/card-return-url.js';

const followed = (url: string, apiUrl = 'https://api.inbox.example.net') => isReachableReturnUrl(new URL(url), apiUrl);

describe('which success_url the card page follows (judged from the address; the service never fetches it)', () => {
  it("follows https on a public DNS name, and anything on the service's own host", () => {
    expect(followed('https://app.customer.io/card-saved?x=1')).toBe(true);
    expect(followed('https://shop.co.uk/back')).toBe(true);
    expect(followed('http://127.0.0.1:8080/portal/billing?card=saved', 'http://127.0.0.1:8080')).toBe(true);
    expect(followed('http://127.0.0.1:3000/after-card', 'http://127.0.0.1:8080')).toBe(true);
    expect(followed('http://localhost:3000/after-card', 'http://127.0.0.1:8080')).toBe(true);
    expect(followed('http://[::1]:3000/after-card', 'http://localhost:8080')).toBe(true);
    expect(followed('http://portal.mybrand.com/x', 'http://portal.mybrand.com')).toBe(true);
  });

  it('does not follow plain http elsewhere, IP addresses, single labels or names reserved never to be a site', () => {
    expect(followed('http://app.customer.io/card-saved')).toBe(false);
    expect(followed('https://example.com/saved')).toBe(false);
    expect(followed('https://www.example.org/saved')).toBe(false);
    expect(followed('https://shop.test/saved')).toBe(false);
    expect(followed('https://x.invalid/saved')).toBe(false);
    expect(followed('https://printer.local/')).toBe(false);
    expect(followed('https://router.home.arpa/')).toBe(false);
    expect(followed('https://intranet/')).toBe(false);
    expect(followed('https://10.0.0.5/')).toBe(false);
    expect(followed('https://[2001:db8::1]/')).toBe(false);
    // A service on a public name does not send people to loopback: their browser is not on its machine.
    expect(followed('http://127.0.0.1:3000/after-card')).toBe(false);
    expect(followed('https://localhost/after-card')).toBe(false);
  });

  it("otherwise lands on the portal's pages", () => {
    expect(portalCardReturnUrls('http://127.0.0.1:8080/')).toEqual({
      saved: 'http://127.0.0.1:8080/portal/card-saved',
      cancelled: 'http://127.0.0.1:8080/portal/billing?card=cancelled',
    });
  });
});
