import { describe, expect, it } from 'vitest';
import { httpsSentence } from '../../resolvers/forwarding/https-sentence.js';
import { serviceConfigFromEnv } from '../../config/settings.js';

/** What the setup's forwarding line says of HTTPS in each state (the ACME states end to end: forwarding-acme.test.ts). */
describe('the forwarding line’s HTTPS sentence', () => {
  const now = new Date('2026-12-01T00:00:00Z');
  it('says HTTPS is off without ACME_DIRECTORY_URL, and which mode the settings choose', () => {
    expect(httpsSentence('off', undefined, true, now)).toMatch(/^HTTPS is off: .*ACME_DIRECTORY_URL/);
    expect(httpsSentence('certificate', undefined, true, now)).toBe("HTTPS is served with the operator's certificate.");
    expect(serviceConfigFromEnv({}).forwardHttps).toBe('off');
    expect(serviceConfigFromEnv({ FORWARD_TLS_CERT: '/c.pem' }).forwardHttps).toBe('certificate');
    expect(serviceConfigFromEnv({ ACME_DIRECTORY_URL: 'https://acme.example/dir', FORWARD_TLS_CERT: '/c.pem' }).forwardHttps).toBe('acme');
  });

  it('says pending before the first certificate, with the last failure and its retry; on with the end date; lapsed once past it', () => {
    expect(httpsSentence('acme', undefined, false, now)).toMatch(/^HTTPS is pending: the domain gets its own certificate once it is live/);
    expect(httpsSentence('acme', undefined, true, now)).toMatch(
      /^HTTPS is pending: the domain's certificate is being obtained; until then http:\/\/ addresses forward\.$/,
    );
    const failed = { not_after: null, issued_at: null, last_error: 'urn:ietf:params:acme:error:connection', retry_at: new Date('2026-12-01T00:05:00Z') };
    expect(httpsSentence('acme', failed, true, now)).toContain(
      'The last attempt failed (urn:ietf:params:acme:error:connection); it is tried again at 2026-12-01T00:05:00.000Z.',
    );
    const issued = { not_after: new Date('2027-03-01T00:00:00Z'), issued_at: new Date('2026-12-01T00:00:00Z'), last_error: null, retry_at: null };
    expect(httpsSentence('acme', issued, true, now)).toBe(
      "HTTPS is on: the domain's certificate is valid until 2027-03-01T00:00:00.000Z and is renewed before then.",
    );
    expect(httpsSentence('acme', issued, true, new Date('2027-03-02T00:00:00Z'))).toMatch(/^HTTPS has lapsed: .*expired at 2027-03-01T00:00:00\.000Z/);
  });
});
