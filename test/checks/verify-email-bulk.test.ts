import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_EMAIL_LIMIT } from '../../resolvers/checks/bulk-input.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { DnsAnswer, DnsLookup, DnsRecordType } from '../../clients/dns/dns-types.js';
import { VERIFY_EMAIL_CHUNK, verifyEmail } from '../../resolvers/checks/verify-email/verify-email.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Issue 32, item 2: a full bulk call (5,000 addresses) asks each name once, and does not hold the
 * event loop for the whole list: its per-address work runs in chunks with a turn of the loop between.
 */
const DOMAINS = 700;
const HOSTS = 7;
/** Each domain's MX names one of seven shared hosts, spelled in another case now and then. */
const records: ZoneRecord[] = [
  ...Array.from(
    { length: DOMAINS },
    (_, i): ZoneRecord => ({
      name: `d${i}.bulk.example`,
      type: 'MX',
      data: { preference: 10, exchange: i % 3 === 0 ? `MX${i % HOSTS}.Hosts.Example.` : `mx${i % HOSTS}.hosts.example` },
    }),
  ),
  ...Array.from({ length: HOSTS }, (_, h): ZoneRecord => ({ name: `mx${h}.hosts.example`, type: 'A', data: `192.0.2.${10 + h}` })),
];
/** 5,000 distinct addresses over the 700 domains, the domain in upper case for every fourth one. */
const emails = Array.from(
  { length: VERIFY_EMAIL_LIMIT },
  (_, n) => `user${n}@${n % 4 === 0 ? `D${n % DOMAINS}.BULK.example` : `d${n % DOMAINS}.bulk.example`}`,
);

let server: TestDnsServer;
let service: TestService;
beforeAll(async () => {
  server = await startTestDnsServer({ records });
  service = await startTestService({
    env: { DNS_SERVERS: server.server, DNS_TIMEOUT_MS: '5000', DNS_TRIES: '1' },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
    socketless: true,
  });
});
afterAll(async () => {
  await service?.close();
  await server?.close();
});

/** The questions since `before` about the fixture's names (the running service may ask about others). */
const fixtureQuestions = (before: number) => server.questions.slice(before).filter((q) => /\.(?:bulk|hosts)\.example$/i.test(q.name));

const context = (dns: DnsLookup): CheckContext => ({
  dns,
  https: { get: () => Promise.reject(new Error('no HTTPS in verify-email tests')) },
  now: () => new Date('2026-11-27T00:00:00Z'),
});

describe('verify-email over 5,000 addresses', () => {
  it('asks each distinct name once: one MX per domain and one A per shared MX host, whatever their spelling', async () => {
    const before = server.questions.length;
    const dns = createDnsLookup({ servers: [server.server], timeoutMs: 5000, tries: 1, concurrency: 32 });
    const answer = await verifyEmail({ emails }, context(dns));
    const asked = fixtureQuestions(before);
    const names = new Set(asked.map((q) => q.name.toLowerCase()));
    expect(asked.length).toBe(DOMAINS + HOSTS);
    expect(names.size).toBe(DOMAINS + HOSTS);
    expect(asked.filter((q) => q.type === 'MX')).toHaveLength(DOMAINS);
    expect(asked.filter((q) => q.type === 'A')).toHaveLength(HOSTS);
    expect(answer.results).toHaveLength(VERIFY_EMAIL_LIMIT);
    expect(answer.counts).toMatchObject({ valid: VERIFY_EMAIL_LIMIT, invalid: 0, unknown: 0 });
    // The answer keeps the caller's order, and each address its own domain's MX.
    expect(answer.results[0]).toMatchObject({
      email: 'user0@D0.BULK.example',
      domain: 'd0.bulk.example',
      mx: [{ preference: 10, exchange: 'mx0.hosts.example' }],
    });
    expect(answer.results[4999]!.email).toBe('user4999@d99.bulk.example');
  });

  it('yields to the event loop between chunks: no single turn reads more than one chunk of addresses', async () => {
    // Every address on a domain of its own, and a lookup that answers at once (no socket), so the
    // only turns of the loop during the call are the ones the check gives back. Each MX question
    // is stamped with the turn it was asked in.
    const many = Array.from({ length: VERIFY_EMAIL_LIMIT }, (_, n) => `a${n}@own${n}.example`);
    let turn = 0;
    let counting = true;
    const count = (): void => {
      turn += 1;
      if (counting) setImmediate(count);
    };
    const askedInTurn = new Map<number, number>();
    const instant: DnsLookup = {
      questionsAsked: 0,
      lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
        if (type === 'MX') askedInTurn.set(turn, (askedInTurn.get(turn) ?? 0) + 1);
        return Promise.resolve({ ok: false, name, type, failure: 'nxdomain', detail: `${type} ${name}: NXDOMAIN` } as DnsAnswer<T>);
      },
    };
    setImmediate(count);
    const answer = await verifyEmail({ emails: many }, context(instant));
    counting = false;
    expect(answer.counts.invalid).toBe(VERIFY_EMAIL_LIMIT);
    expect([...askedInTurn.values()].reduce((a, b) => a + b, 0)).toBe(VERIFY_EMAIL_LIMIT);
    // Read in chunks: at most one chunk of new domains per turn, so at least limit ÷ chunk turns.
    expect(Math.max(...askedInTurn.values())).toBeLessThanOrEqual(VERIFY_EMAIL_CHUNK);
    expect(askedInTurn.size).toBeGreaterThanOrEqual(VERIFY_EMAIL_LIMIT / VERIFY_EMAIL_CHUNK);
    // The answers are built in chunks too: the loop turned again after the last question.
    expect(turn - Math.max(...askedInTurn.keys())).toBeGreaterThanOrEqual(VERIFY_EMAIL_LIMIT / VERIFY_EMAIL_CHUNK - 1);
  });

  it('through the public REST door too: 707 questions for the 707 names, every address answered in order', async () => {
    const before = server.questions.length;
    const response = await service.pub('/.platform/functions/verify-email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emails }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { results: { email: string; valid: boolean | null }[] };
    const asked = fixtureQuestions(before);
    expect(asked.length).toBe(DOMAINS + HOSTS);
    expect(new Set(asked.map((q) => `${q.name.toLowerCase()}`)).size).toBe(DOMAINS + HOSTS);
    expect(answer.results.map((r) => r.email)).toEqual(emails);
    expect(answer.results.every((r) => r.valid === true)).toBe(true);
  });
});
