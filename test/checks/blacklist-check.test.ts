import { readSettings } from '../../config/settings.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import type { BlacklistConfig } from '../../config/settings.js';
import { checkBlacklist } from '../../resolvers/checks/blacklist/check-blacklist.js';
import type { BlacklistContext } from '../../resolvers/checks/blacklist/check-blacklist.js';
import { DNSBL_LISTS, DOMAIN_LISTS, IP_LISTS } from '../../resolvers/checks/blacklist/dnsbl-lists.js';
import { checkUribl } from '../../resolvers/checks/uribl/check-uribl.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsblTestPoints } from '../support/dnsbl-test-points.js';

const a = (name: string, ...addresses: string[]): ZoneRecord[] => addresses.map((data) => ({ name, type: 'A', data }));

// 192.0.2.10: listed on ZEN (XBL + PBL) and Barracuda, refusals and failures elsewhere.
// 192.0.2.20: ZEN answers the "public resolver" refusal. 192.0.2.1: listed nowhere.
const records: ZoneRecord[] = [
  ...a('10.2.0.192.zen.spamhaus.org', '127.0.0.4', '127.0.0.11'),
  ...a('10.2.0.192.b.barracudacentral.org', '127.0.0.2'),
  ...a('10.2.0.192.dnsbl.dronebl.org', '127.0.0.200'),
  ...a('10.2.0.192.dnsbl-1.uceprotect.net', '127.0.0.2'),
  ...a('10.2.0.192.psbl.surriel.com', '127.0.0.1'),
  ...a('10.2.0.192.all.s5h.net', '203.0.113.9'),
  ...a('10.2.0.192.bl.mailspike.net', '127.255.255.1'),
  ...a('20.2.0.192.zen.spamhaus.org', '127.255.255.254'),
  ...a('30.2.0.192.zen.spamhaus.org', '127.255.255.252'),
  ...a('40.2.0.192.zen.spamhaus.org', '127.255.255.255'),
  // DQS zone for key "abc123".
  ...a('10.2.0.192.abc123.zen.dq.spamhaus.net', '127.0.0.2'),
  // Domains.
  { name: 'listed.example', type: 'MX', data: { preference: 10, exchange: 'mx.listed.example' } },
  ...a('mx.listed.example', '192.0.2.10'),
  ...a('listed.example.dbl.spamhaus.org', '127.0.1.2'),
  ...a('listed.example.multi.uribl.com', '127.0.0.1'),
  ...a('listed.example.multi.surbl.org', '127.0.0.24'),
  { name: 'clean.example', type: 'MX', data: { preference: 10, exchange: 'mx.clean.example' } },
  ...a('mx.clean.example', '192.0.2.1'),
  { name: 'nomail.example', type: 'MX', data: { preference: 0, exchange: '.' } },
  ...a('grey.example.multi.uribl.com', '127.0.0.12'),
  ...a('blocked.example.multi.surbl.org', '127.0.0.9'),
  ...a('blocked.example.multi.uribl.com', '127.0.0.2'),
  ...a('phish.example.dbl.spamhaus.org', '127.0.1.4'),
  ...a('phish.example.multi.surbl.org', '127.0.0.136'),
  ...a('refused.example.dbl.spamhaus.org', '127.255.255.254'),
  ...a('refused.example.multi.uribl.com', '127.0.0.1'),
  ...a('refused.example.multi.surbl.org', '127.0.0.1'),
  { name: 'clean2.example', type: 'A', data: '192.0.2.1' },
  // Every list answers its RFC 5782 test point.
  ...dnsblTestPoints(),
  ...dnsblTestPoints({ spamhausDqsKey: 'abc123' }).filter((r) => r.name.includes('.dq.spamhaus.net')),
];

let server: TestDnsServer;
beforeAll(async () => {
  server = await startTestDnsServer({
    records,
    behaviours: {
      '10.2.0.192.bl.spamcop.net': 'timeout',
      '10.2.0.192.dnsbl-2.uceprotect.net': 'servfail',
      '10.2.0.192.dnsbl-3.uceprotect.net': 'refused',
      'refused.example.dbl.nordspam.com': 'servfail',
      'refused.example.uribl.spameatingmonkey.net': 'timeout',
      'refused.example.dbl.suomispam.net': 'refused',
    },
  });
});
afterAll(() => server.close());

const ctx = (blacklist: BlacklistConfig = { spamhausDqsKey: null }): BlacklistContext => ({
  dns: createDnsLookup({ servers: [server.server], timeoutMs: 300, tries: 1, concurrency: 32 }),
  https: { get: () => Promise.reject(new Error('no HTTPS in blocklist tests')) },
  now: () => new Date('2026-09-26T00:00:00Z'),
  blacklist,
});

describe('check-blacklist', () => {
  it('asks at least 20 maintained lists and no SORBS zone', () => {
    expect(DNSBL_LISTS.length).toBeGreaterThanOrEqual(20);
    expect(IP_LISTS.length).toBeGreaterThanOrEqual(20);
    expect(DNSBL_LISTS.some((l) => l.zone.includes('sorbs'))).toBe(false);
    expect(new Set(DNSBL_LISTS.map((l) => l.zone)).size).toBe(DNSBL_LISTS.length);
  });

  it('an unlisted IPv4 address is answered false by every IP list', async () => {
    const answer = await checkBlacklist({ input: '192.0.2.1' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', inputKind: 'ipv4', listedCount: 0, checkedCount: IP_LISTS.length, unansweredCount: 0 });
    expect(answer.lists.every((l) => l.listed === false && l.target === '192.0.2.1')).toBe(true);
  });

  it('a listed address gives each code with its meaning and removal address, and refusals never count as listings', async () => {
    const answer = await checkBlacklist({ input: '192.0.2.10' }, ctx());
    const by = (id: string) => answer.lists.find((l) => l.listId === id);
    expect(by('spamhaus_zen')).toMatchObject({ listed: true, zone: 'zen.spamhaus.org', removalUrl: 'https://check.spamhaus.org/', reason: null });
    expect(by('spamhaus_zen')?.codes.map((c) => c.code)).toEqual(['127.0.0.11', '127.0.0.4']);
    expect(by('spamhaus_zen')?.codes[1]?.meaning).toMatch(/XBL/);
    expect(by('barracuda')).toMatchObject({ listed: true });
    expect(by('uceprotect_1')).toMatchObject({ listed: true });
    // An undocumented code in 127/8 is still a listing, flagged as undocumented.
    expect(by('dronebl')?.codes[0]?.meaning).toMatch(/not documented/);
    // RFC 5782: 127.0.0.1 is never a listing; an answer outside 127/8 is a wildcarded zone; 127.255.255.x is an error.
    expect(by('psbl')).toMatchObject({ listed: null, reason: expect.stringMatching(/127\.0\.0\.1/) });
    expect(by('s5h')).toMatchObject({ listed: null, reason: expect.stringMatching(/outside 127/) });
    expect(by('mailspike')).toMatchObject({ listed: null, reason: expect.stringMatching(/error code/) });
    // Timeout, SERVFAIL and REFUSED are no answer, never a listing.
    expect(by('spamcop')).toMatchObject({ listed: null, reason: expect.stringMatching(/timeout/) });
    expect(by('uceprotect_2')).toMatchObject({ listed: null, reason: expect.stringMatching(/servfail/) });
    expect(by('uceprotect_3')).toMatchObject({ listed: null, reason: expect.stringMatching(/refused/) });
    expect(answer.listedCount).toBe(4);
    expect(answer.unansweredCount).toBe(6);
    expect(answer.checkedCount).toBe(IP_LISTS.length - 6);
    expect(answer.status).toBe('fail');
    expect(answer.findings.find((f) => f.code === 'listed_major')?.message).toMatch(/check\.spamhaus\.org/);
  });

  it.each([
    ['192.0.2.20', '127.255.255.254', /public or open resolvers/],
    ['192.0.2.30', '127.255.255.252', /typing error/],
    ['192.0.2.40', '127.255.255.255', /too many queries/],
  ])('Spamhaus %s answering %s is listed null with the reason', async (ip, code, reason) => {
    const answer = await checkBlacklist({ input: ip }, ctx());
    const zen = answer.lists.find((l) => l.listId === 'spamhaus_zen');
    expect(zen).toMatchObject({ listed: null, codes: [{ code }], reason: expect.stringMatching(reason) });
    expect(answer.listedCount).toBe(0);
    expect(answer.status).toBe('pass');
  });

  it('with SPAMHAUS_DQS_KEY, Spamhaus is asked through DQS and the key never appears in the answer', async () => {
    const config = readSettings({ SPAMHAUS_DQS_KEY: 'ABC123' }).blacklist;
    const answer = await checkBlacklist({ input: '192.0.2.10' }, ctx(config));
    const zen = answer.lists.find((l) => l.listId === 'spamhaus_zen');
    expect(zen).toMatchObject({ listed: true, zone: 'zen.dq.spamhaus.net (DQS)', codes: [{ code: '127.0.0.2' }] });
    expect(server.questions.some((q) => q.name === '10.2.0.192.abc123.zen.dq.spamhaus.net')).toBe(true);
    expect(JSON.stringify(answer)).not.toMatch(/abc123/i);
    expect(() => readSettings({ SPAMHAUS_DQS_KEY: 'not a key!' }).blacklist).toThrow(/SPAMHAUS_DQS_KEY/);
  });

  it('a domain is asked on the domain lists and its MX addresses on the IP lists, and says so', async () => {
    const answer = await checkBlacklist({ input: 'Listed.Example' }, ctx());
    expect(answer).toMatchObject({
      inputKind: 'domain',
      domain: 'listed.example',
      checked: { domain: 'listed.example', mailHosts: ['mx.listed.example'], addresses: ['192.0.2.10'] },
    });
    expect(answer.checked.description).toMatch(/mx\.listed\.example/);
    expect(answer.lists).toHaveLength(DOMAIN_LISTS.length + IP_LISTS.length);
    const dbl = answer.lists.find((l) => l.listId === 'spamhaus_dbl');
    expect(dbl).toMatchObject({ listed: true, target: 'listed.example', codes: [{ code: '127.0.1.2', meaning: 'Spam domain' }] });
    expect(answer.lists.find((l) => l.listId === 'uribl')).toMatchObject({ listed: null, reason: expect.stringMatching(/URIBL refused/) });
    const surbl = answer.lists.find((l) => l.listId === 'surbl');
    expect(surbl?.codes.map((c) => c.meaning)).toEqual(['PH: phishing', 'MW: malware']);
    expect(answer.lists.find((l) => l.listId === 'spamhaus_zen' && l.target === '192.0.2.10')?.listed).toBe(true);
  });

  it('a domain with a null MX is checked on the domain lists only, with a note', async () => {
    const answer = await checkBlacklist({ input: 'nomail.example' }, ctx());
    expect(answer.lists).toHaveLength(DOMAIN_LISTS.length);
    expect(answer.findings.find((f) => f.code === 'mail_servers_not_checked')?.message).toMatch(/null MX/);
  });

  it('a domain without MX has its own address checked (implicit MX)', async () => {
    const answer = await checkBlacklist({ input: 'clean2.example' }, ctx());
    expect(answer.checked.addresses).toEqual(['192.0.2.1']);
    expect(answer.status).toBe('pass');
  });

  it.each([
    ['', /Send "input"/],
    ['2001:db8::1', /IPv6/],
    ['https://example.com/x', /not a URL/],
  ])('input %j is a 400 saying what to pass', async (input, detail) => {
    const error = await checkBlacklist({ input }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)?.status).toBe(400);
    expect((error as DomainError).detail).toMatch(detail);
  });
});

describe('blocklists that are alive (RFC 5782 test points)', () => {
  // The 0spam zone is gone (its test point is NXDOMAIN like everything else), the NordSpam DBL zone
  // was parked and answers every name ("invalid" included), and SEM URI does not answer its test point.
  const deadRecords: ZoneRecord[] = [
    ...dnsblTestPoints({ spamhausDqsKey: null }, ['0spam', 'sem_uri']),
    ...a('invalid.dbl.nordspam.com', '127.0.0.2'),
    ...a('clean.example.dbl.nordspam.com', '127.0.0.2'),
    { name: 'clean.example', type: 'MX', data: { preference: 10, exchange: 'mx.clean.example' } },
    ...a('mx.clean.example', '192.0.2.1'),
  ];
  let dead: TestDnsServer;
  beforeAll(async () => {
    dead = await startTestDnsServer({ records: deadRecords, behaviours: { 'test.uribl.spameatingmonkey.net': 'timeout' } });
  });
  afterAll(() => dead.close());
  const deadCtx = (): BlacklistContext => ({ ...ctx(), dns: createDnsLookup({ servers: [dead.server], timeoutMs: 300, tries: 1, concurrency: 64 }) });

  it('a list whose zone is gone is listed null with a reason, not "not listed", and is not counted as checked', async () => {
    const answer = await checkBlacklist({ input: '192.0.2.1' }, deadCtx());
    const zero = answer.lists.find((l) => l.listId === '0spam')!;
    expect(zero).toMatchObject({ listed: null, alive: false, reason: expect.stringMatching(/test point 127\.0\.0\.2/) });
    expect(answer.lists.filter((l) => l.listId !== '0spam').every((l) => l.listed === false && l.alive === true)).toBe(true);
    expect(answer.checkedCount).toBe(IP_LISTS.length - 1);
    expect(answer.unansweredCount).toBe(1);
    expect(answer.findings.map((f) => f.code)).toContain('lists_failed_test_point');
  });

  it('a parked zone that lists "invalid" is no listing, and a test point that timed out leaves the list unverified', async () => {
    const answer = await checkBlacklist({ input: 'clean.example' }, deadCtx());
    expect(answer.lists.find((l) => l.listId === 'nordspam_dbl')).toMatchObject({
      listed: null,
      alive: false,
      reason: expect.stringMatching(/lists invalid/),
    });
    expect(answer.lists.find((l) => l.listId === 'sem_uri')).toMatchObject({ listed: null, alive: null, reason: expect.stringMatching(/Could not check/) });
    expect(answer.listedCount).toBe(0);
  });

  it("asks each list's test-point pair once per request, however many targets", async () => {
    const before = dead.questions.length;
    await checkUribl({ domains: 'a.example,b.example,c.example' }, deadCtx());
    const asked = dead.questions.slice(before).map((q) => q.name);
    for (const list of DOMAIN_LISTS) {
      expect(asked.filter((n) => n === `invalid.${list.zone}`)).toHaveLength(1);
      expect(asked.filter((n) => n === `${list.test_domain ?? 'test'}.${list.zone}`)).toHaveLength(1);
    }
  });
});

describe('check-uribl', () => {
  it('reads URIBL grey/red bits, SURBL phishing/cracked bits and DBL codes per domain', async () => {
    const answer = await checkUribl({ domains: 'grey.example, phish.example,clean.example, grey.example' }, ctx());
    expect(answer.results.map((r) => r.domain)).toEqual(['grey.example', 'phish.example', 'clean.example']);
    const [grey, phish, clean] = answer.results;
    expect(grey?.listed).toBe(true);
    expect(grey?.lists.find((l) => l.listId === 'uribl')?.codes.map((c) => c.meaning.split(':')[0])).toEqual(['grey', 'red']);
    expect(phish?.lists.find((l) => l.listId === 'surbl')?.codes.map((c) => c.meaning)).toEqual(['PH: phishing', 'CR: cracked (compromised) site']);
    expect(phish?.lists.find((l) => l.listId === 'spamhaus_dbl')?.codes).toEqual([{ code: '127.0.1.4', meaning: 'Phishing domain' }]);
    expect(clean).toMatchObject({ listed: false });
    expect(answer).toMatchObject({ status: 'fail', listedCount: 2 });
  });

  it("SURBL's blocked bit is no answer even beside a listing bit, and URIBL still answers", async () => {
    const answer = await checkUribl({ domains: ['blocked.example'] }, ctx());
    const [blocked] = answer.results;
    expect(blocked?.lists.find((l) => l.listId === 'surbl')).toMatchObject({ listed: null, reason: expect.stringMatching(/SURBL blocked/) });
    expect(blocked?.lists.find((l) => l.listId === 'uribl')?.codes[0]?.meaning).toMatch(/^black/);
    expect(blocked?.listed).toBe(true);
  });

  it('a domain that no list answered usably is listed null, not listed, and a sole such domain is an error', async () => {
    const answer = await checkUribl({ domains: 'refused.example' }, ctx());
    expect(answer.results[0]).toMatchObject({ listed: null });
    expect(answer.results[0]?.lists.every((l) => l.listed === null)).toBe(true);
    expect(answer).toMatchObject({ status: 'error', listedCount: 0 });
  });

  it('asks about the registered domain of a tracking host', async () => {
    const answer = await checkUribl({ domains: 'track.phish.example' }, ctx());
    expect(answer.results[0]).toMatchObject({ domain: 'track.phish.example', queried: 'phish.example', listed: true });
  });

  it('101 domains is a 400 naming the limit of 100', async () => {
    const domains = Array.from({ length: 101 }, (_, i) => `d${i}.example`).join(',');
    const error = await checkUribl({ domains }, ctx()).catch((e: unknown) => e);
    expect(restAnswerOf(error)).toMatchObject({ status: 400, code: 'too_many_items' });
    expect((error as DomainError).detail).toMatch(/limit is 100/);
    await expect(checkUribl({ domains: Array.from({ length: 100 }, (_, i) => `d${i}.example`) }, ctx())).resolves.toMatchObject({ listedCount: 0 });
  });

  it('a malformed item is answered as its own result without failing the rest', async () => {
    const answer = await checkUribl({ domains: 'not a domain,clean.example' }, ctx());
    expect(answer.results[0]).toMatchObject({ domain: 'not a domain', listed: null, queried: null });
    expect(answer.results[1]).toMatchObject({ domain: 'clean.example', listed: false });
  });
});
