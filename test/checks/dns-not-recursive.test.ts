import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsServer, ZoneRecord } from '../support/dns-server.js';

const records: ZoneRecord[] = [
  {
    name: 'zone.test',
    type: 'SOA',
    data: { mname: 'ns1.zone.test', rname: 'hostmaster.zone.test', serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
  },
  { name: 'zone.test', type: 'A', data: '192.0.2.1' },
];

let authoritativeOnly: TestDnsServer;
let referring: TestDnsServer;
let resolver: TestDnsServer;
beforeAll(async () => {
  // bind9 as an authoritative-only server: RA clear on every reply.
  authoritativeOnly = await startTestDnsServer({ records, recursionAvailable: false });
  // Sets RA (a misconfigured forwarder) but answers names outside its zone with a referral.
  referring = await startTestDnsServer({ records, zones: ['zone.test'] });
  resolver = await startTestDnsServer({ records });
});
afterAll(() => Promise.all([authoritativeOnly.close(), referring.close(), resolver.close()]));

const lookupAt = (server: TestDnsServer) => createDnsLookup({ servers: [server.server], timeoutMs: 300, tries: 1, concurrency: 4 });

describe('a resolver that does not recurse', () => {
  it('RA clear on a reply to our recursive question is a configuration error, never a missing record', async () => {
    const lookup = lookupAt(authoritativeOnly);
    const missing = await lookup.lookup('other.test', 'A');
    expect(missing).toMatchObject({ ok: false, failure: 'not_recursive' });
    expect(!missing.ok && missing.detail).toMatch(/DNS_SERVERS points at a server that does not recurse/);
    // Even its own zone's answers say nothing we can rely on for other names: still reported.
    expect(await lookup.lookup('zone.test', 'AAAA')).toMatchObject({ failure: 'not_recursive' });
  });

  it('a referral (no answer, NS in authority, no SOA) is not read as no data', async () => {
    const lookup = lookupAt(referring);
    const answer = await lookup.lookup('example.com', 'MX');
    expect(answer).toMatchObject({ ok: false, failure: 'not_recursive' });
    expect(!answer.ok && answer.detail).toMatch(/referral to a\.root-servers\.net/);
    // Inside its zone a negative answer carries the SOA: a real no-data answer.
    expect(await lookup.lookup('zone.test', 'MX')).toMatchObject({ ok: false, failure: 'nodata' });
  });

  it('a recursive server answering from its own data still works', async () => {
    const lookup = lookupAt(resolver);
    expect(await lookup.lookup('zone.test', 'A')).toMatchObject({ ok: true });
    expect(await lookup.lookup('missing.zone.test', 'A')).toMatchObject({ failure: 'nxdomain' });
  });

  it('moves on to the next configured server', async () => {
    const lookup = createDnsLookup({ servers: [authoritativeOnly.server, resolver.server], timeoutMs: 300, tries: 2, concurrency: 4 });
    expect(await lookup.lookup('zone.test', 'A')).toMatchObject({ ok: true });
    expect(lookup.questionsAsked).toBe(2);
  });
});
