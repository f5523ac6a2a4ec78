import { readSettings } from '../../config/settings.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { checkDomainExpiry } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';
import type { ExpiryContext } from '../../resolvers/checks/domain-expiry/check-domain-expiry.js';
import { DEFAULT_RDAP_BOOTSTRAP_URL } from '../../config/settings.js';
import { parseWhois, parseWhoisDate, whoisReferral } from '../../clients/registry/whois-lookup.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
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
      // Hostile or careless registries: nulls among the events and entities.
      'nulls.example': {
        objectClassName: 'domain',
        events: [null, 'expiration', { eventAction: 'expiration', eventDate: '2027-03-01T12:00:00Z' }],
        entities: [null, 7, { roles: ['registrar'], vcardArray: ['vcard', [null, ['fn', {}, 'text', 'Null-Tolerant Registrar']]] }],
      },
    },
  });
  slowRdap = await startTestRdapServer({ tlds: ['example'], domains: { 'good.example': {} }, delayMs: 1000 });
  whois = await startTestWhoisServer({
    answers: {
      'tienda.es':
        'Domain Name: TIENDA.ES\r\nRegistrar: Registrador Ejemplo SL\r\nCreation Date: 2010-05-04T10:00:00Z\r\nRegistry Expiry Date: 2027-05-04T10:00:00Z\r\n',
      'shop.ru': 'domain:        SHOP.RU\nregistrar:     RU-CENTER-RU\ncreated:       2012.03.01\npaid-till:     2027.03.01\n',
      'example.co.uk':
        '    Domain name:\n        example.co.uk\n\n    Registrar:\n        Example Ltd [Tag = EXAMPLE]\n\n    Relevant dates:\n        Registered on: 05-Feb-2001\n        Expiry date:  05-Feb-2027\n',
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
  registration: readSettings({ REGISTRATION_TIMEOUT_MS: '400', ...env }).registration,
});
const local = (): ExpiryContext => ctx({ RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, WHOIS_SERVER: whois.server });

describe('check-domain-expiry over RDAP', () => {
  it('reads registrar, created, expires and days remaining from the RDAP service the bootstrap file names', async () => {
    const answer = await checkDomainExpiry({ domain: 'good.example' }, local());
    expect(answer).toMatchObject({
      status: 'pass',
      registered: true,
      source: 'rdap',
      registrar: 'Example Registrar, Inc.',
      created: '2015-03-01T12:00:00.000Z',
      expires: '2027-03-01T12:00:00.000Z',
      daysRemaining: 156,
      registeredDomain: 'good.example',
    });
    expect(answer.ageDays).toBeGreaterThan(4000);
  });

  it('nulls and strings among the events and entities are skipped, not read (the rest of the answer still counts)', async () => {
    const answer = await checkDomainExpiry({ domain: 'nulls.example' }, local());
    expect(answer).toMatchObject({
      registered: true,
      source: 'rdap',
      registrar: 'Null-Tolerant Registrar',
      created: null,
      expires: '2027-03-01T12:00:00.000Z',
    });
  });

  it('a subdomain is looked up as its registered domain', async () => {
    const answer = await checkDomainExpiry({ domain: 'mail.track.good.example' }, local());
    expect(answer).toMatchObject({ domain: 'mail.track.good.example', registeredDomain: 'good.example', registered: true });
    expect(rdap.requests).toContain('/rdap/domain/good.example');
  });

  it.each([
    ['soon.example', 'warn', 'expires_soon', 10],
    ['expired.example', 'fail', 'expired', -25],
    ['young.example', 'warn', 'young_domain', 359],
  ])('%s is %s with %s', async (domain, status, code, days) => {
    const answer = await checkDomainExpiry({ domain }, local());
    expect(answer).toMatchObject({ status, daysRemaining: days });
    expect(answer.findings.map((f) => f.code)).toContain(code);
  });

  it('a 404 is "not registered"; a 500 or a timeout is an error that claims nothing', async () => {
    expect(await checkDomainExpiry({ domain: 'free.example' }, local())).toMatchObject({ status: 'fail', registered: false, source: 'rdap' });
    expect(await checkDomainExpiry({ domain: 'broken.example' }, local())).toMatchObject({
      status: 'error',
      registered: null,
      summary: expect.stringMatching(/HTTP 500/),
    });
    const slow = await checkDomainExpiry({ domain: 'good.example' }, ctx({ RDAP_BOOTSTRAP_URL: slowRdap.bootstrapUrl }));
    expect(slow).toMatchObject({ status: 'error', registered: null, summary: expect.stringMatching(/did not answer within 400 ms/) });
  });

  it('loads the bootstrap file once and again only when it is a day old', async () => {
    const fresh = await startTestRdapServer({
      tlds: ['example'],
      domains: { 'good.example': rdapDomain('good.example', 'R', '2015-01-01T00:00:00Z', '2027-01-01T00:00:00Z') },
    });
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

  it("parses the date shapes registries use and IANA's referral line", () => {
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
  it("defaults to IANA's bootstrap file and parses WHOIS_SERVER", () => {
    expect(readSettings({}).registration).toEqual({
      rdapBootstrapUrl: DEFAULT_RDAP_BOOTSTRAP_URL,
      whoisServer: null,
      timeoutMs: 5000,
      allowPrivate: false,
      ianaWhois: { host: 'whois.iana.org', port: 43 },
      referralPort: 43,
    });
    expect(readSettings({ CHECKS_ALLOW_PRIVATE_ADDRESSES: '1' }).registration.allowPrivate).toBe(true);
    expect(readSettings({ WHOIS_SERVER: 'whois.example:4343' }).registration.whoisServer).toEqual({ host: 'whois.example', port: 4343 });
    expect(() => readSettings({ RDAP_BOOTSTRAP_URL: 'ftp://x' }).registration).toThrow(/RDAP_BOOTSTRAP_URL/);
  });

  it('a URL or email address is a 400 saying what to pass', async () => {
    const error = await checkDomainExpiry({ domain: 'ana@good.example' }, local()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).detail).toMatch(/not an email address/);
  });
});

describe('WHOIS servers learned from IANA are vetted like any fetch', () => {
  let iana: TestWhoisServer;
  let dnsServer: TestDnsServer;
  const TIENDA =
    'Domain Name: TIENDA.ES\r\nRegistrar: Registrador Ejemplo SL\r\nCreation Date: 2010-05-04T10:00:00Z\r\nRegistry Expiry Date: 2027-05-04T10:00:00Z\r\n';

  beforeAll(async () => {
    // One local server plays IANA (answers a TLD with its "whois:" line) and every TLD's server.
    iana = await startTestWhoisServer({
      answers: {
        es: 'domain:       ES\n\nwhois:        whois.es-registry.test\n',
        ru: 'domain:       RU\n\nwhois:        whois.metadata.test\n',
        pl: 'domain:       PL\n\nwhois:        10.0.0.1\n',
        de: 'domain:       DE\n\nstatus:       ACTIVE\n',
        fr: 'domain:       FR\n\nwhois:        whois.mapped.test\n',
        it: 'domain:       IT\n\nwhois:        whois.nowhere.test\n',
        'tienda.es': TIENDA,
      },
    });
    dnsServer = await startTestDnsServer({
      records: [
        { name: 'whois.es-registry.test', type: 'A', data: '127.0.0.1' },
        { name: 'whois.metadata.test', type: 'A', data: '169.254.169.254' },
        { name: 'whois.nic.de', type: 'A', data: '192.168.0.1' },
        { name: 'whois.mapped.test', type: 'AAAA', data: '::7f00:1' },
      ],
    });
  });
  afterAll(async () => {
    await Promise.all([iana?.close(), dnsServer?.close()]);
  });

  const learning = (env: NodeJS.ProcessEnv = {}): ExpiryContext => {
    const port = Number(iana.server.split(':')[1]);
    const base = readSettings({ REGISTRATION_TIMEOUT_MS: '400', RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, ...env }).registration;
    return {
      ...ctx({}),
      dns: createDnsLookup({ servers: [dnsServer.server], timeoutMs: 300, tries: 1, concurrency: 8 }),
      registration: { ...base, ianaWhois: { host: '127.0.0.1', port }, referralPort: port },
    };
  };

  it.each([
    ['tienda.es', 'whois.es-registry.test resolves to 127.0.0.1', 'loopback'],
    ['shop.ru', 'whois.metadata.test resolves to 169.254.169.254', 'link-local'],
    ['sklep.pl', '10.0.0.1 resolves to 10.0.0.1', 'private'],
    ['laden.de', 'whois.nic.de resolves to 192.168.0.1', 'private'],
    ['boutique.fr', 'whois.mapped.test resolves to ::7f00:1', 'IPv4-compatible'],
  ])('refuses the server IANA names for %s without connecting to it', async (domain, where, kind) => {
    iana.queries.length = 0;
    const answer = await checkDomainExpiry({ domain }, learning());
    expect(answer).toMatchObject({ status: 'error', registered: null, source: 'whois' });
    expect(answer.findings).toHaveLength(1);
    expect(answer.findings[0]).toMatchObject({ severity: 'error', code: 'whois_server_refused' });
    expect(answer.findings[0]!.message).toContain(where);
    expect(answer.findings[0]!.message).toContain(kind);
    expect(answer.findings[0]!.message).toMatch(/it was not asked.*must have a public address/);
    // IANA was asked for the TLD; the domain itself was never sent to the refused address.
    expect(iana.queries).toEqual([domain.split('.').pop()]);
  });

  it('a learned server with no address is a lookup failure, not a refusal', async () => {
    const answer = await checkDomainExpiry({ domain: 'negozio.it' }, learning());
    expect(answer.findings[0]).toMatchObject({ code: 'lookup_failed' });
    expect(answer.findings[0]!.message).toContain('whois.nowhere.test has no A or AAAA record');
  });

  it("with CHECKS_ALLOW_PRIVATE_ADDRESSES=1 asks the vetted address, resolved once through the checks' DNS", async () => {
    iana.queries.length = 0;
    dnsServer.questions.length = 0;
    const answer = await checkDomainExpiry({ domain: 'tienda.es' }, learning({ CHECKS_ALLOW_PRIVATE_ADDRESSES: '1' }));
    // whois.es-registry.test exists only in the test DNS server: the system resolver could not have reached it.
    expect(answer).toMatchObject({
      status: 'pass',
      registered: true,
      source: 'whois',
      registrar: 'Registrador Ejemplo SL',
      server: `whois.es-registry.test:${iana.server.split(':')[1]}`,
    });
    expect(iana.queries).toEqual(['es', 'tienda.es']);
    expect(dnsServer.questions.filter((q) => q.name.toLowerCase() === 'whois.es-registry.test' && q.type === 'A')).toHaveLength(1);
  });

  it('a server that refuses the connection reads as "no connection could be made", never a socket error code', async () => {
    const answer = await checkDomainExpiry({ domain: 'tienda.es' }, ctx({ RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, WHOIS_SERVER: '127.0.0.1:1' }));
    expect(answer.findings[0]).toMatchObject({
      code: 'lookup_failed',
      message: expect.stringContaining('WHOIS server 127.0.0.1:1 could not be read (no connection could be made)'),
    });
    expect(JSON.stringify(answer)).not.toMatch(/ECONN|EHOST/);
  });

  it("the operator's WHOIS_SERVER is trusted configuration: a private address is asked", async () => {
    const answer = await checkDomainExpiry(
      { domain: 'tienda.es' },
      { ...learning(), registration: { ...learning().registration, whoisServer: { host: '127.0.0.1', port: Number(iana.server.split(':')[1]) } } },
    );
    expect(answer).toMatchObject({ registered: true, server: iana.server });
  });
});
