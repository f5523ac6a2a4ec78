import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../resolvers/api-error.js';
import { checkDomainExpiry } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';
import type { ExpiryContext } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';
import { registrationConfigFromEnv, DEFAULT_RDAP_BOOTSTRAP_URL } from '../../resolvers/checks/domain-expiry/registration-config.js';
import { parseWhois, parseWhoisDate, whoisReferral } from '../../resolvers/checks/domain-expiry/whois-lookup.js';
import { rdapDomain, startTestRdapServer, type TestRdapServer } from '../support/rdap-server.js';
import { startTestWhoisServer, type TestWhoisServer } from '../support/whois-server.js';

const NOW = new Date('2026-09-26T00:00:00Z');

let rdap: TestRdapServer;
let slowRdap: TestRdapServer;
let whois: TestWhoisServer;

beforeAll(async () => {
  rdap = await startTestRdapServer({
    tlds: ['example'],
    domains: {
      'good.example': rdapDomain('good.example', 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2027-03-01T12:00:00Z'),
      'soon.example': rdapDomain('soon.example', 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2026-10-06T12:00:00Z'),
      'expired.example': rdapDomain('expired.example', 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2026-09-01T00:00:00Z'),
      'young.example': rdapDomain('young.example', 'Example Registrar, Inc.', '2026-09-20T00:00:00Z', '2027-09-20T00:00:00Z'),
      'broken.example': 500,
    },
  });
  slowRdap = await startTestRdapServer({ tlds: ['example'], domains: { 'good.example': {} }, delayMs: 1000 });
  whois = await startTestWhoisServer({
    answers: {
      'tienda.es': 'Domain Name: TIENDA.ES\r\nRegistrar: Registrador Ejemplo SL\r\nCreation Date: 2010-05-04T10:00:00Z\r\nRegistry Expiry Date: 2027-05-04T10:00:00Z\r\n',
      'shop.ru': 'domain:        SHOP.RU\nregistrar:     RU-CENTER-RU\ncreated:       2012.03.01\npaid-till:     2027.03.01\n',
      'example.co.uk': '    Domain name:\n        example.co.uk\n\n    Registrar:\n        Example Ltd [Tag = EXAMPLE]\n\n    Relevant dates:\n        Registered on: 05-Feb-2001\n        Expiry date:  05-Feb-2027\n',
    },
    silent: ['slow.es'],
  });
});
afterAll(async () => {
  await Promise.all([rdap.close(), slowRdap.close(), whois.close()]);
});

const ctx = (env: NodeJS.ProcessEnv, now = NOW): ExpiryContext => ({
  dns: { lookup: () => Promise.reject(new Error('no DNS in expiry tests')), questionsAsked: 0 },
  https: { get: () => Promise.reject(new Error('no HTTPS fetcher in expiry tests')) },
  now: () => now,
  registration: registrationConfigFromEnv({ REGISTRATION_TIMEOUT_MS: '400', ...env }),
});
const local = (): ExpiryContext => ctx({ RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, WHOIS_SERVER: whois.server });

describe('check-domain-expiry over RDAP', () => {
  it('reads registrar, created, expires and days remaining from the RDAP service the bootstrap file names', async () => {
    const answer = await checkDomainExpiry({ domain: 'good.example' }, local());
    expect(answer).toMatchObject({
      status: 'pass', registered: true, source: 'rdap', registrar: 'Example Registrar, Inc.',
      created: '2015-03-01T12:00:00.000Z', expires: '2027-03-01T12:00:00.000Z', days_remaining: 156, registered_domain: 'good.example',
    });
    expect(answer.age_days).toBeGreaterThan(4000);
  });

  it('a subdomain is looked up as its registered domain', async () => {
    const answer = await checkDomainExpiry({ domain: 'mail.track.good.example' }, local());
    expect(answer).toMatchObject({ domain: 'mail.track.good.example', registered_domain: 'good.example', registered: true });
    expect(rdap.requests).toContain('/rdap/domain/good.example');
  });

  it.each([
    ['soon.example', 'warn', 'expires_soon', 10],
    ['expired.example', 'fail', 'expired', -25],
    ['young.example', 'warn', 'young_domain', 359],
  ])('%s is %s with %s', async (domain, status, code, days) => {
    const answer = await checkDomainExpiry({ domain }, local());
    expect(answer).toMatchObject({ status, days_remaining: days });
    expect(answer.findings.map((f) => f.code)).toContain(code);
  });

  it('a 404 is "not registered"; a 500 or a timeout is an error that claims nothing', async () => {
    expect(await checkDomainExpiry({ domain: 'free.example' }, local())).toMatchObject({ status: 'fail', registered: false, source: 'rdap' });
    expect(await checkDomainExpiry({ domain: 'broken.example' }, local())).toMatchObject({ status: 'error', registered: null, summary: expect.stringMatching(/HTTP 500/) });
    const slow = await checkDomainExpiry({ domain: 'good.example' }, ctx({ RDAP_BOOTSTRAP_URL: slowRdap.bootstrapUrl }));
    expect(slow).toMatchObject({ status: 'error', registered: null, summary: expect.stringMatching(/did not answer within 400 ms/) });
  });

  it('loads the bootstrap file once and again only when it is a day old', async () => {
    const fresh = await startTestRdapServer({ tlds: ['example'], domains: { 'good.example': rdapDomain('good.example', 'R', '2015-01-01T00:00:00Z', '2027-01-01T00:00:00Z') } });
    try {
      const env = { RDAP_BOOTSTRAP_URL: fresh.bootstrapUrl };
      await checkDomainExpiry({ domain: 'good.example' }, ctx(env));
      await checkDomainExpiry({ domain: 'good.example' }, ctx(env, new Date(NOW.getTime() + 60 * 60 * 1000)));
      expect(fresh.requests.filter((p) => p.startsWith('/bootstrap'))).toHaveLength(1);
      await checkDomainExpiry({ domain: 'good.example' }, ctx(env, new Date(NOW.getTime() + 25 * 60 * 60 * 1000)));
      expect(fresh.requests.filter((p) => p.startsWith('/bootstrap'))).toHaveLength(2);
      // The domain itself is asked every time: check answers are never cached.
      expect(fresh.requests.filter((p) => p.startsWith('/rdap/domain'))).toHaveLength(3);
    } finally {
      await fresh.close();
    }
  });
});

describe('check-domain-expiry over WHOIS', () => {
  it.each([
    ['tienda.es', 'Registrador Ejemplo SL', '2010-05-04T10:00:00.000Z', '2027-05-04T10:00:00.000Z'],
    ['shop.ru', 'RU-CENTER-RU', '2012-03-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z'],
    ['www.example.co.uk', 'Example Ltd [Tag = EXAMPLE]', '2001-02-05T00:00:00.000Z', '2027-02-05T00:00:00.000Z'],
  ])('a TLD without RDAP falls back to WHOIS: %s', async (domain, registrar, created, expires) => {
    const answer = await checkDomainExpiry({ domain }, local());
    expect(answer).toMatchObject({ source: 'whois', registered: true, registrar, created, expires, server: whois.server });
  });

  it('"No match" is not registered; a silent server is an error', async () => {
    expect(await checkDomainExpiry({ domain: 'nobody.es' }, local())).toMatchObject({ status: 'fail', registered: false, source: 'whois' });
    expect(await checkDomainExpiry({ domain: 'slow.es' }, local())).toMatchObject({ status: 'error', registered: null, source: 'whois' });
  });

  it('parses the date shapes registries use and IANA\'s referral line', () => {
    expect(parseWhoisDate('2027-01-02')).toBe('2027-01-02T00:00:00.000Z');
    expect(parseWhoisDate('2027-01-02T10:00:00+02:00')).toBe('2027-01-02T08:00:00.000Z');
    expect(parseWhoisDate('02.01.2027')).toBe('2027-01-02T00:00:00.000Z');
    expect(parseWhoisDate('2-Jan-2027')).toBe('2027-01-02T00:00:00.000Z');
    expect(parseWhoisDate('31.02.2027')).toBeNull();
    expect(whoisReferral('domain:       ES\n\nwhois:        whois.nic.es\n')).toBe('whois.nic.es');
    expect(parseWhois('% nothing useful here\n', 'x:43')).toMatchObject({ kind: 'failed' });
  });
});

describe('registration config', () => {
  it('defaults to IANA\'s bootstrap file and parses WHOIS_SERVER', () => {
    expect(registrationConfigFromEnv({})).toEqual({ rdapBootstrapUrl: DEFAULT_RDAP_BOOTSTRAP_URL, whoisServer: null, timeoutMs: 5000 });
    expect(registrationConfigFromEnv({ WHOIS_SERVER: 'whois.example:4343' }).whoisServer).toEqual({ host: 'whois.example', port: 4343 });
    expect(() => registrationConfigFromEnv({ RDAP_BOOTSTRAP_URL: 'ftp://x' })).toThrow(/RDAP_BOOTSTRAP_URL/);
  });

  it('a URL or email address is a 400 saying what to pass', async () => {
    const error = await checkDomainExpiry({ domain: 'ana@good.example' }, local()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toMatch(/not an email address/);
  });
});
