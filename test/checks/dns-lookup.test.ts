import { readSettings } from '../../config/settings.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { DnsConfig } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsServer } from '../support/dns-server.js';

let dns: TestDnsServer;
// Over 1232 octets: too big for UDP even with EDNS(0), so it comes over TCP.
const longTxt = Array.from({ length: 12 }, (_, i) => `chunk-${i}-${'x'.repeat(120)}`);

beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      { name: 'example.test', type: 'A', data: '192.0.2.1' },
      { name: 'example.test', type: 'MX', data: { preference: 10, exchange: 'mx.example.test' } },
      { name: 'example.test', type: 'TXT', data: ['v=spf1 ', '-all'] },
      { name: 'www.example.test', type: 'CNAME', data: 'target.example.test' },
      { name: 'target.example.test', type: 'A', data: '192.0.2.7' },
      { name: 'deep.sub.example.test', type: 'A', data: '192.0.2.9' },
      { name: 'big.example.test', type: 'TXT', data: longTxt },
    ],
    behaviours: { 'slow.example.test': 'timeout', 'broken.example.test': 'servfail', 'closed.example.test': 'refused', 'junk.example.test': 'garbage' },
  });
});
afterAll(() => dns.close());

function config(overrides: Partial<DnsConfig> = {}): DnsConfig {
  return { servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 32, ...overrides };
}

describe('the DNS engine', () => {
  it('returns the records of the asked type', async () => {
    const answer = await createDnsLookup(config()).lookup('Example.Test.', 'MX');
    expect(answer).toMatchObject({ ok: true, name: 'example.test', type: 'MX', records: [{ data: { preference: 10, exchange: 'mx.example.test' } }] });
  });

  it('keeps the character-strings of a TXT record apart', async () => {
    const answer = await createDnsLookup(config()).lookup('example.test', 'TXT');
    expect(answer.ok && answer.records[0]?.data).toEqual(['v=spf1 ', '-all']);
  });

  it('tells a name that does not exist from a name without that type', async () => {
    const lookup = createDnsLookup(config());
    expect(await lookup.lookup('missing.example.test', 'A')).toMatchObject({ ok: false, failure: 'nxdomain' });
    expect(await lookup.lookup('example.test', 'AAAA')).toMatchObject({ ok: false, failure: 'nodata' });
    // A name with records only below it exists (an empty non-terminal), so it is no data, not NXDOMAIN.
    expect(await lookup.lookup('sub.example.test', 'A')).toMatchObject({ ok: false, failure: 'nodata' });
  });

  it('tells SERVFAIL, REFUSED, a timeout and a garbage reply apart', async () => {
    const lookup = createDnsLookup(config());
    expect(await lookup.lookup('broken.example.test', 'TXT')).toMatchObject({ ok: false, failure: 'servfail' });
    expect(await lookup.lookup('closed.example.test', 'TXT')).toMatchObject({ ok: false, failure: 'refused' });
    expect(await lookup.lookup('slow.example.test', 'TXT')).toMatchObject({ ok: false, failure: 'timeout' });
    expect(await lookup.lookup('junk.example.test', 'TXT')).toMatchObject({ ok: false, failure: 'malformed' });
  });

  it('follows a CNAME to the asked type but shows the CNAME only when CNAME is asked', async () => {
    const lookup = createDnsLookup(config());
    const a = await lookup.lookup('www.example.test', 'A');
    expect(a.ok && a.records.map((r) => r.data)).toEqual(['192.0.2.7']);
    const cname = await lookup.lookup('www.example.test', 'CNAME');
    expect(cname.ok && cname.records.map((r) => r.data)).toEqual(['target.example.test']);
  });

  it('retries a timed-out question on the next server', async () => {
    const lookup = createDnsLookup(config({ servers: ['127.0.0.1:9', dns.server], tries: 2, timeoutMs: 200 }));
    expect(await lookup.lookup('example.test', 'A')).toMatchObject({ ok: true });
    expect(lookup.questionsAsked).toBe(2);
  });

  it('asks the same question once per lookup instance, whatever its case', async () => {
    const before = dns.questions.length;
    const lookup = createDnsLookup(config());
    const [first, second] = await Promise.all([lookup.lookup('example.test', 'A'), lookup.lookup('EXAMPLE.test.', 'A')]);
    await lookup.lookup('example.test', 'A');
    expect(first).toEqual(second);
    expect(lookup.questionsAsked).toBe(1);
    expect(dns.questions.length - before).toBe(1);
    // A new instance (a new request) asks again: nothing is cached across requests.
    const next = createDnsLookup(config());
    await next.lookup('example.test', 'A');
    expect(next.questionsAsked).toBe(1);
  });

  it('falls back to TCP for a TXT answer over 1232 bytes', async () => {
    const lookup = createDnsLookup(config());
    const answer = await lookup.lookup('big.example.test', 'TXT');
    expect(answer.ok && answer.records[0]?.data.join('')).toBe(longTxt.join(''));
    // Asked once over UDP (truncated reply) and once more over TCP.
    expect(dns.questions.filter((q) => q.name === 'big.example.test').map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('refuses to put a name with an empty label on the wire', async () => {
    const lookup = createDnsLookup(config());
    expect(await lookup.lookup('a..example.test', 'A')).toMatchObject({ ok: false, failure: 'malformed' });
    expect(lookup.questionsAsked).toBe(0);
  });
});

describe('the concurrency cap', () => {
  it('keeps at most the configured number of questions in flight', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `host${i}.slowzone.test`);
    const slow = await startTestDnsServer({ records: names.map((name) => ({ name, type: 'A' as const, data: '192.0.2.1' })), delayMs: 40 });
    try {
      const lookup = createDnsLookup({ servers: [slow.server], timeoutMs: 2000, tries: 1, concurrency: 4 });
      // The server delays each answer, so the number of questions it has received but not yet
      // answered is the number in flight; sample it while the lookups run.
      let maxInFlight = 0;
      const answered = new Set<number>();
      const all = Promise.all(
        names.map((name, i) =>
          lookup.lookup(name, 'A').then((a) => {
            answered.add(i);
            return a;
          }),
        ),
      );
      const sampler = setInterval(() => {
        maxInFlight = Math.max(maxInFlight, slow.questions.length - answered.size);
      }, 2);
      const answers = await all;
      clearInterval(sampler);
      expect(answers.every((a) => a.ok)).toBe(true);
      expect(maxInFlight).toBeGreaterThan(1);
      expect(maxInFlight).toBeLessThanOrEqual(4);
      expect(slow.questions.length).toBe(20);
    } finally {
      await slow.close();
    }
  });
});

describe('the DNS configuration', () => {
  it('reads servers, timeout, tries and concurrency from the environment', () => {
    expect(readSettings({ DNS_SERVERS: '127.0.0.1:5300, [::1]:53', DNS_TIMEOUT_MS: '500', DNS_TRIES: '3', DNS_CONCURRENCY: '8' }).dns).toEqual({
      servers: ['127.0.0.1:5300', '[::1]:53'],
      timeoutMs: 500,
      tries: 3,
      concurrency: 8,
      questionsPerSocket: 100,
      authoritativePort: 53,
    });
    expect(readSettings({ DNS_SERVERS: '10.0.0.1', DNS_AUTHORITATIVE_PORT: '5353', DNS_QUESTIONS_PER_SOCKET: '1' }).dns).toMatchObject({
      authoritativePort: 5353,
      questionsPerSocket: 1,
    });
    expect(() => readSettings({ DNS_SERVERS: '10.0.0.1', DNS_AUTHORITATIVE_PORT: '70000' }).dns).toThrow(/DNS_AUTHORITATIVE_PORT/);
    expect(readSettings({ DNS_SERVERS: '10.0.0.1' }).dns).toMatchObject({ timeoutMs: 2000, tries: 2, concurrency: 64 });
  });

  it('fails at start-up on a server that is not an address', () => {
    expect(() => readSettings({ DNS_SERVERS: 'resolver.example' }).dns).toThrow(/not an IP address/);
    expect(() => readSettings({ DNS_SERVERS: '127.0.0.1', DNS_TRIES: '0' }).dns).toThrow(/DNS_TRIES/);
  });
});
