import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { checkProviderDomain } from '../../resolvers/checks/provider-domain/check-provider-domain.js';
import type { ProviderDomainContext } from '../../resolvers/checks/provider-domain/check-provider-domain.js';
import { createGoogleTenancyProbe } from '../../resolvers/checks/provider-domain/google-tenancy-probe.js';
import type { GoogleTenancyProbe } from '../../resolvers/checks/provider-domain/google-tenancy-probe.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';

const records: ZoneRecord[] = [
  { name: 'gmail-user.example', type: 'MX', data: { preference: 1, exchange: 'smtp.google.com' } },
  { name: 'gmail-user.example', type: 'TXT', data: ['v=spf1 include:_spf.google.com ~all'] },
  { name: 'gmail-user.example', type: 'TXT', data: ['google-site-verification=abc'] },
  { name: 'google._domainkey.gmail-user.example', type: 'TXT', data: ['v=DKIM1; k=rsa; p=MIIBIjANBgkq'] },
  { name: 'verified.example', type: 'TXT', data: ['google-site-verification=xyz'] },
  { name: 'verified.example', type: 'MX', data: { preference: 10, exchange: 'mx.other.example' } },
  { name: 'fresh.example', type: 'A', data: '192.0.2.1' },
  { name: 'lookalike.example', type: 'MX', data: { preference: 10, exchange: 'google.com.mx.evil.example' } },
];

let server: TestDnsServer;
beforeAll(async () => {
  server = await startTestDnsServer({ records, behaviours: { 'slow.example': 'timeout', 'google._domainkey.slow.example': 'timeout' } });
});
afterAll(() => server.close());

const probeSaying = (answer: 'managed' | 'unmanaged' | 'unknown'): GoogleTenancyProbe => ({ probe: () => Promise.resolve(answer) });
const ctx = (googleTenancy: GoogleTenancyProbe): ProviderDomainContext => ({
  dns: createDnsLookup({ servers: [server.server], timeoutMs: 300, tries: 1, concurrency: 32 }),
  https: { get: () => Promise.reject(new Error('no HTTPS in provider tests')) },
  now: () => new Date('2026-09-26T00:00:00Z'),
  googleTenancy,
});

describe('check-provider-domain', () => {
  it('finds every kind of Google DNS evidence, and the probe\'s "managed" makes it attached with high confidence', async () => {
    const answer = await checkProviderDomain({ domain: 'gmail-user.example' }, ctx(probeSaying('managed')));
    expect(answer).toMatchObject({ attached: true, confidence: 'high', status: 'warn' });
    expect(answer.evidence.map((e) => [e.kind, e.found])).toEqual([
      ['google_mx', true],
      ['google_site_verification', true],
      ['google_spf_include', true],
      ['google_dkim', true],
      ['sign_in_discovery', true],
    ]);
    expect(answer.note).toMatch(/do not prove which account holds it/);
  });

  it('without a probe answer, Google MX is attached with medium confidence and says DNS shows use, not tenancy', async () => {
    const answer = await checkProviderDomain({ domain: 'gmail-user.example' }, ctx(probeSaying('unknown')));
    expect(answer).toMatchObject({ attached: true, confidence: 'medium' });
    expect(answer.summary).toMatch(/DNS shows use, not tenancy/);
  });

  it('a verification record alone cannot tell (null, low)', async () => {
    const answer = await checkProviderDomain({ domain: 'verified.example' }, ctx(probeSaying('unknown')));
    expect(answer).toMatchObject({ attached: null, confidence: 'low', status: 'warn' });
  });

  it('no evidence is clear with low confidence, and "unmanaged" makes it high', async () => {
    expect(await checkProviderDomain({ domain: 'fresh.example' }, ctx(probeSaying('unknown')))).toMatchObject({
      attached: false,
      confidence: 'low',
      status: 'pass',
    });
    expect(await checkProviderDomain({ domain: 'fresh.example' }, ctx(probeSaying('unmanaged')))).toMatchObject({ attached: false, confidence: 'high' });
  });

  it('"unmanaged" beside leftover Google records is clear with medium confidence', async () => {
    const answer = await checkProviderDomain({ domain: 'gmail-user.example' }, ctx(probeSaying('unmanaged')));
    expect(answer).toMatchObject({ attached: false, confidence: 'medium' });
    expect(answer.summary).toMatch(/leftover/);
  });

  it('an MX host that only contains google.com is not Google', async () => {
    const answer = await checkProviderDomain({ domain: 'lookalike.example' }, ctx(probeSaying('unknown')));
    expect(answer.evidence[0]).toMatchObject({ kind: 'google_mx', found: false });
  });

  it('failed lookups are null evidence and an error, never "no Google records"', async () => {
    const answer = await checkProviderDomain({ domain: 'slow.example' }, ctx(probeSaying('unknown')));
    expect(answer).toMatchObject({ status: 'error', attached: null });
    expect(answer.evidence.filter((e) => e.kind !== 'sign_in_discovery').every((e) => e.found === null)).toBe(true);
  });

  it('a probe that throws counts as no answer', async () => {
    const answer = await checkProviderDomain({ domain: 'fresh.example' }, ctx({ probe: () => Promise.reject(new Error('boom')) }));
    expect(answer.evidence.at(-1)).toMatchObject({ kind: 'sign_in_discovery', found: null });
  });
});

describe('the default Google sign-in discovery probe', () => {
  const fakeFetch =
    (response: Response | Error): typeof fetch =>
    () =>
      response instanceof Error ? Promise.reject(response) : Promise.resolve(response);

  it('reads a redirect to Google sign-in as managed and the "isn\'t using" page as unmanaged', async () => {
    const managed = createGoogleTenancyProbe({
      fetch: fakeFetch(new Response(null, { status: 302, headers: { location: 'https://accounts.google.com/ServiceLogin?hd=x' } })),
    });
    expect(await managed.probe('x.example')).toBe('managed');
    const unmanaged = createGoogleTenancyProbe({
      fetch: fakeFetch(new Response('<p>Sorry, you&#39;ve reached a login page for a domain that isn&#39;t using Google Workspace.</p>', { status: 200 })),
    });
    expect(await unmanaged.probe('x.example')).toBe('unmanaged');
  });

  it('degrades to unknown on errors, other pages and other redirects', async () => {
    expect(await createGoogleTenancyProbe({ fetch: fakeFetch(new Error('network down')) }).probe('x.example')).toBe('unknown');
    expect(await createGoogleTenancyProbe({ fetch: fakeFetch(new Response('captcha', { status: 429 })) }).probe('x.example')).toBe('unknown');
    expect(
      await createGoogleTenancyProbe({ fetch: fakeFetch(new Response(null, { status: 302, headers: { location: 'https://evil.example/' } })) }).probe(
        'x.example',
      ),
    ).toBe('unknown');
  });
});
