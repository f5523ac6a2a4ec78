import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { createUdpSocketPool } from '../../clients/dns/udp-socket-pool.js';
import type { UdpSocketPool } from '../../clients/dns/udp-socket-pool.js';
import { startTestDnsServer } from '../support/dns-server.js';
import { waitFor } from '../support/wait-for.js';
import type { TestDnsServer } from '../support/dns-server.js';

const names = Array.from({ length: 30 }, (_, i) => `host${i}.pool.test`);
let dns: TestDnsServer;
let slow: TestDnsServer;
const bigTxt = Array.from({ length: 12 }, (_, i) => `chunk-${i}-${'x'.repeat(120)}`);
beforeAll(async () => {
  dns = await startTestDnsServer({
    records: names.map((name, i) => ({ name, type: 'A' as const, data: `192.0.2.${i + 1}` })),
    behaviours: { 'junk.pool.test': 'garbage', 'slow.pool.test': 'timeout' },
  });
  slow = await startTestDnsServer({
    records: [
      { name: 'big.slow.test', type: 'TXT', data: bigTxt },
      { name: 'a.slow.test', type: 'A', data: '192.0.2.1' },
    ],
    // Long enough that what a test does while an answer is pending (a forged reply, an abort) happens
    // before it, even on a busy machine.
    delayMs: 2000,
  });
});
afterAll(() => Promise.all([dns.close(), slow.close()]));

const pools: UdpSocketPool[] = [];
function pool(questionsPerSocket: number, width = 2): UdpSocketPool {
  const p = createUdpSocketPool({ questionsPerSocket, width });
  pools.push(p);
  return p;
}
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
});

describe('UDP socket reuse', () => {
  it('carries many questions on a few sockets, each matched to its own answer', async () => {
    const p = pool(100, 2);
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 1000, tries: 1, concurrency: 30, pool: p });
    const answers = await Promise.all(names.map((n) => lookup.lookup(n, 'A')));
    expect(answers.map((a) => a.ok && a.records[0]?.data)).toEqual(names.map((_, i) => `192.0.2.${i + 1}`));
    expect(p.socketsOpened).toBe(2);
  });

  it('retires a socket after its number of questions, so source ports vary', async () => {
    const p = pool(5, 1);
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 1000, tries: 1, concurrency: 4, pool: p });
    await Promise.all(names.slice(0, 20).map((n) => lookup.lookup(n, 'A')));
    expect(p.socketsOpened).toBe(4);
    // One question per socket is the old behaviour, kept for the bench's comparison.
    const fresh = pool(1, 1);
    const each = createDnsLookup({ servers: [dns.server], timeoutMs: 1000, tries: 1, concurrency: 4, pool: fresh });
    await Promise.all(names.slice(0, 6).map((n) => each.lookup(n, 'A')));
    expect(fresh.socketsOpened).toBe(6);
  });

  it('a garbage reply fails its own question at once and leaves the others on the socket alone', async () => {
    const p = pool(100, 1);
    // A deadline past the test's own: a garbage reply that did not fail its question at once would
    // leave it waiting, and the test would time out (no wall-clock bound needed).
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 60_000, tries: 1, concurrency: 8, pool: p });
    const [junk, good] = await Promise.all([lookup.lookup('junk.pool.test', 'A'), lookup.lookup(names[0]!, 'A')]);
    expect(junk).toMatchObject({ ok: false, failure: 'malformed' });
    expect(good).toMatchObject({ ok: true });
  });

  it('believes only a reply from the server asked: a forged one with the right id and question from another port is dropped', async () => {
    const p = pool(100, 1);
    const spoofer: Socket = createSocket('udp4');
    await new Promise<void>((resolve) => spoofer.bind(0, '127.0.0.1', resolve));
    const lookup = createDnsLookup({ servers: [slow.server], timeoutMs: 10_000, tries: 1, concurrency: 4, pool: p });
    const asked = slow.questions.length;
    const pending = lookup.lookup('a.slow.test', 'A');
    await waitFor('the question at the server', () => slow.questions.slice(asked).some((q) => q.name === 'a.slow.test'));
    // The server (answering after 2 s) saw our id and source port; a spoofer who knows both
    // still sends from elsewhere.
    const seen = slow.questions.at(-1)!;
    const forged = dnsPacket.encode({
      type: 'response',
      id: seen.id,
      flags: dnsPacket.RECURSION_AVAILABLE | dnsPacket.RECURSION_DESIRED,
      questions: [{ type: 'A', class: 'IN', name: 'a.slow.test' }],
      answers: [{ type: 'A', name: 'a.slow.test', ttl: 60, data: '203.0.113.66' }],
    });
    spoofer.send(forged, seen.sourcePort, '127.0.0.1');
    const answer = await pending;
    spoofer.close();
    expect(answer.ok && answer.records[0]?.data).toBe('192.0.2.1');
  });

  it('random ids, and a new source port after each retirement', async () => {
    const p = pool(3, 1);
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 1000, tries: 1, concurrency: 1, pool: p });
    const before = dns.questions.length;
    for (const n of names.slice(0, 9)) await lookup.lookup(n, 'A');
    const seen = dns.questions.slice(before);
    expect(new Set(seen.map((q) => q.sourcePort)).size).toBe(3);
    expect(new Set(seen.map((q) => q.id)).size).toBeGreaterThan(6);
  });
});

describe('cancellation inside the wire layer', () => {
  it('abandons a UDP question in flight as soon as the signal aborts', async () => {
    const controller = new AbortController();
    // Each try's deadline is past the test's own: only the abort can end this lookup in time.
    const lookup = createDnsLookup({ servers: [dns.server], timeoutMs: 60_000, tries: 3, concurrency: 4, pool: pool(100) }, { signal: controller.signal });
    const sent = () => dns.questions.filter((q) => q.name === 'slow.pool.test').length;
    const before = sent();
    const pending = lookup.lookup('slow.pool.test', 'A');
    await waitFor('the question at the server', () => sent() > before);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, failure: 'cancelled' });
    // A question asked after the hang-up and answered: a retry sent at the hang-up would be at the server by then.
    const after = createDnsLookup({ servers: [dns.server], timeoutMs: 5000, tries: 1, concurrency: 1, pool: pool(100) });
    expect(await after.lookup(names[1]!, 'A')).toMatchObject({ ok: true });
    // One try went out; none of the two retries was sent after the hang-up.
    expect(sent() - before).toBe(1);
  });

  it('abandons the TCP retry in flight as soon as the signal aborts', async () => {
    const controller = new AbortController();
    // Each try's deadline is past the test's own: only the abort can end this lookup in time.
    const lookup = createDnsLookup({ servers: [slow.server], timeoutMs: 60_000, tries: 2, concurrency: 4, pool: pool(100) }, { signal: controller.signal });
    const asked = slow.questions.length;
    const pending = lookup.lookup('big.slow.test', 'TXT');
    // The UDP reply (truncated) comes after 2 s; abort while the TCP question waits for its answer.
    await waitFor('the TCP question at the server', () => slow.questions.slice(asked).some((q) => q.name === 'big.slow.test' && q.transport === 'tcp'));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, failure: 'cancelled' });
    expect(slow.questions.filter((q) => q.name === 'big.slow.test').map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });
});

/** Whether this machine has an IPv6 loopback (a UDP socket binds to ::1). Without one the IPv6 test is reported skipped, not passed. */
const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = createSocket('udp6');
  probe.once('error', () => {
    probe.close();
    resolve(false);
  });
  probe.bind(0, '::1', () => {
    probe.close();
    resolve(true);
  });
});

describe('reply source matching', () => {
  it.skipIf(!ipv6Loopback)(
    `an IPv6 server written in full still has its replies believed${ipv6Loopback ? '' : ' (skipped: no IPv6 loopback here)'}`,
    async () => {
      const v6 = await startTestDnsServer({ records: [{ name: 'six.test', type: 'A', data: '192.0.2.6' }], address: '::1' });
      try {
        // Not a test of timeouts: the server in this process may answer late when the machine is busy.
        const lookup = createDnsLookup({ servers: [`[0:0:0:0:0:0:0:1]:${v6.port}`], timeoutMs: 5000, tries: 1, concurrency: 1, pool: pool(100) });
        expect(await lookup.lookup('six.test', 'A')).toMatchObject({ ok: true });
      } finally {
        await v6.close();
      }
    },
  );
});
