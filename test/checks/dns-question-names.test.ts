import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { verifyEmail } from '../../resolvers/checks/verify-email/verify-email.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsServer } from '../support/dns-server.js';

/** Item 10: one request never asks the same question twice, whatever case or dot a name comes with. */
let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      // Providers' zones publish MX targets in any case; the case-preserving server hands it on.
      { name: 'one.example', type: 'MX', data: { preference: 1, exchange: 'ASPMX.L.Google.com.' } },
      { name: 'two.example', type: 'MX', data: { preference: 1, exchange: 'aspmx.l.google.com' } },
      { name: 'three.example', type: 'MX', data: { preference: 1, exchange: 'Aspmx.L.GOOGLE.com' } },
      { name: 'aspmx.l.google.com', type: 'A', data: '192.0.2.25' },
    ],
  });
});
afterAll(() => dns.close());

const config = () => ({ servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 16 });

describe('question names are normalised before the per-request key', () => {
  it('bulk verify-email asks `aspmx.l.google.com A` once for MX targets spelled three ways', async () => {
    const lookup = createDnsLookup(config());
    const before = dns.questions.length;
    const answer = await verifyEmail(
      { emails: ['a@one.example', 'b@two.example', 'c@three.example'] },
      { dns: lookup, https: { get: () => Promise.reject(new Error('none')) }, now: () => new Date() },
    );
    expect(answer.results.map((r) => r.valid)).toEqual([true, true, true]);
    const asked = dns.questions.slice(before).filter((q) => q.name === 'aspmx.l.google.com');
    expect(asked.map((q) => q.type)).toEqual(['A']);
    expect(lookup.questionsAsked).toBe(4);
  });

  it('names in answers come lower case without the root dot; a spelled name with spaces is the same question', async () => {
    const lookup = createDnsLookup(config());
    const mx = await lookup.lookup('one.example', 'MX');
    expect(mx.ok && mx.records[0]?.data.exchange).toBe('aspmx.l.google.com');
    const before = dns.questions.length;
    const answers = await Promise.all([
      lookup.lookup(' ASPMX.L.Google.com. ', 'A'),
      lookup.lookup('aspmx.l.google.com', 'A'),
      lookup.lookup('aspmx.l.google.com.', 'A'),
    ]);
    expect(answers.every((a) => a.ok && a.name === 'aspmx.l.google.com')).toBe(true);
    expect(dns.questions.length - before).toBe(1);
  });
});
