import { describe, expect, it } from 'vitest';
import { clientAddressOf, trustedProxySet } from '../../server/client-address.js';
import { readSettings } from '../../config/settings.js';

describe('the client address the public rate limit counts', () => {
  const proxies = trustedProxySet(readSettings({ TRUSTED_PROXIES: '10.0.0.5, 10.0.0.6' }).trustedProxies);

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', new Set())).toBe('203.0.113.9');
  });

  it('is the nearest untrusted hop in X-Forwarded-For behind a trusted proxy', () => {
    expect(clientAddressOf('10.0.0.5', '198.51.100.1, 203.0.113.7', proxies)).toBe('203.0.113.7');
    expect(clientAddressOf('::ffff:10.0.0.5', '198.51.100.1, 203.0.113.7, 10.0.0.6', proxies)).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy, so a caller cannot choose its allowance', () => {
    expect(clientAddressOf('203.0.113.9', '1.2.3.4', proxies)).toBe('203.0.113.9');
  });

  it('skips hops that are not IP addresses', () => {
    expect(clientAddressOf('10.0.0.5', 'unknown, garbage, 203.0.113.8', proxies)).toBe('203.0.113.8');
    expect(clientAddressOf('10.0.0.5', 'garbage', proxies)).toBe('10.0.0.5');
  });

  it('refuses a TRUSTED_PROXIES entry that is not an address, at start', () => {
    expect(() => readSettings({ TRUSTED_PROXIES: 'lb.internal' })).toThrow(/IP addresses/);
  });
});
