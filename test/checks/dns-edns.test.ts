import { createSocket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import type { DnsConfig } from '../../clients/dns/create-dns-lookup.js';
import { edeMeaning } from '../../clients/dns/extended-dns-errors.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsServer } from '../support/dns-server.js';

let dns: TestDnsServer;
// About 800 octets: over the 512 of plain DNS, under the 1232 we advertise with EDNS(0).
const mediumTxt = Array.from({ length: 6 }, (_, i) => `chunk-${i}-${'x'.repeat(120)}`);

beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      { name: 'medium.example.test', type: 'TXT', data: mediumTxt },
      { name: 'signed.example.test', type: 'A', data: '192.0.2.1' },
      { name: 'plain.example.test', type: 'A', data: '192.0.2.2' },
    ],
    secure: ['signed.example.test'],
    extendedErrors: {
      'expired.example.test': { code: 7, text: 'RRSIG for example.test expired' },
      'blocked.example.test': { code: 15 },
      'gone.example.test': { code: 6, rcode: 'SERVFAIL' },
      // A validating resolver's first answer names the reason; its cache answers later tries generically.
      'stale-sig.example.test': { code: 7, text: 'RRSIG expired 2026-11-01', cached: 6 },
      'unsure.example.test': { code: 5, cached: 6 },
      'unreachable.example.test': { code: 22, text: 'no reachable authority', cached: 13 },
    },
  });
});
afterAll(() => dns.close());

function config(overrides: Partial<DnsConfig> = {}): DnsConfig {
  return { servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 8, ...overrides };
}

/** A raw UDP query to the test server, to see what it does without EDNS. */
async function rawUdp(name: string, type: 'TXT' | 'A', withEdns: boolean): Promise<{ bytes: number; packet: DecodedPacket }> {
  const socket = createSocket('udp4');
  try {
    return await new Promise((resolve, reject) => {
      socket.on('message', (bytes) => resolve({ bytes: bytes.length, packet: dnsPacket.decode(bytes) }));
      socket.on('error', reject);
      const query = dnsPacket.encode({
        type: 'query',
        id: 4242,
        flags: dnsPacket.RECURSION_DESIRED,
        questions: [{ type, class: 'IN', name }],
        additionals: withEdns ? [{ type: 'OPT', name: '.', udpPayloadSize: 4096, flags: 0, options: [] } as never] : [],
      });
      socket.send(query, dns.port, '127.0.0.1');
    });
  } finally {
    socket.close();
  }
}

describe('EDNS(0) on every question', () => {
  it('sends an OPT record with a 1232-octet payload and DO set', async () => {
    const before = dns.questions.length;
    await createDnsLookup(config()).lookup('plain.example.test', 'A');
    expect(dns.questions.slice(before)).toEqual([
      expect.objectContaining({ transport: 'udp', edns: true, payload: 1232, dnssecOk: true, authenticatedData: true, recursionDesired: true }),
    ]);
  });

  it('gets an answer between 512 and 1232 octets over UDP in one question, without a TCP retry', async () => {
    const before = dns.questions.length;
    const answer = await createDnsLookup(config()).lookup('medium.example.test', 'TXT');
    expect(answer.ok && answer.records[0]?.data.join('')).toBe(mediumTxt.join(''));
    expect(dns.questions.slice(before).map((q) => q.transport)).toEqual(['udp']);
  });

  it('asks a server that does not know EDNS (FORMERR) again without it', async () => {
    const old = await startTestDnsServer({ records: [{ name: 'old.example.test', type: 'A', data: '192.0.2.9' }], noEdns: true });
    try {
      const answer = await createDnsLookup(config({ servers: [old.server] })).lookup('old.example.test', 'A');
      expect(answer).toMatchObject({ ok: true, records: [{ data: '192.0.2.9' }] });
      expect(old.questions.map((q) => q.edns)).toEqual([true, false]);
    } finally {
      await old.close();
    }
  });

  it('the test server truncates at 512 octets without EDNS and caps an EDNS client at 1232', async () => {
    const plain = await rawUdp('medium.example.test', 'TXT', false);
    expect(plain.packet.flag_tc).toBe(true);
    expect(plain.packet.answers).toHaveLength(0);
    expect(plain.bytes).toBeLessThanOrEqual(512);
    const edns = await rawUdp('medium.example.test', 'TXT', true);
    expect(edns.packet.flag_tc).toBe(false);
    expect(edns.packet.answers).toHaveLength(1);
    expect(edns.packet.additionals?.find((a) => a.type === 'OPT')).toMatchObject({ udpPayloadSize: 1232 });
  });
});

describe('DNSSEC status and Extended DNS Errors', () => {
  it('is secure when the resolver sets AD, insecure otherwise', async () => {
    const lookup = createDnsLookup(config());
    expect(await lookup.lookup('signed.example.test', 'A')).toMatchObject({ ok: true, dnssec: 'secure' });
    expect(await lookup.lookup('plain.example.test', 'A')).toMatchObject({ ok: true, dnssec: 'insecure' });
  });

  it('a SERVFAIL with a DNSSEC Extended DNS Error is bogus, and the failure says why in plain words', async () => {
    const answer = await createDnsLookup(config()).lookup('expired.example.test', 'TXT');
    expect(answer).toMatchObject({
      ok: false,
      failure: 'servfail',
      dnssec: 'bogus',
      ede: { code: 7, meaning: 'the DNSSEC signature has expired', text: 'RRSIG for example.test expired' },
    });
    expect(!answer.ok && answer.detail).toBe(
      'the resolver failed to look up TXT expired.example.test (SERVFAIL): the DNSSEC signature has expired (Extended DNS Error 7: RRSIG for example.test expired)',
    );
    expect(await createDnsLookup(config()).lookup('gone.example.test', 'A')).toMatchObject({ dnssec: 'bogus', ede: { code: 6 } });
  });

  it('an Extended DNS Error outside DNSSEC is worded but not bogus', async () => {
    const answer = await createDnsLookup(config()).lookup('blocked.example.test', 'A');
    expect(answer).toMatchObject({ ok: false, failure: 'servfail', dnssec: 'indeterminate', ede: { code: 15, text: null } });
    expect(!answer.ok && answer.detail).toContain('the resolver blocks this name (Extended DNS Error 15)');
  });

  it("a SERVFAIL with a bogus code is asked once with DNS_TRIES=2, and keeps the first reply's code 7", async () => {
    const before = dns.questions.length;
    const answer = await createDnsLookup(config({ tries: 2 })).lookup('stale-sig.example.test', 'A');
    expect(answer).toMatchObject({ failure: 'servfail', dnssec: 'bogus', ede: { code: 7, text: 'RRSIG expired 2026-11-01' } });
    expect(dns.questions.slice(before).map((q) => q.name)).toEqual(['stale-sig.example.test']);
    // What a retry would have got: the cache's generic code 6, without the reason.
    expect(await createDnsLookup(config()).lookup('stale-sig.example.test', 'A')).toMatchObject({ dnssec: 'bogus', ede: { code: 6, text: null } });
  });

  it('EDE 5 (DNSSEC Indeterminate) is indeterminate, not bogus, and not asked again', async () => {
    const before = dns.questions.length;
    const answer = await createDnsLookup(config({ tries: 2 })).lookup('unsure.example.test', 'TXT');
    expect(answer).toMatchObject({ failure: 'servfail', dnssec: 'indeterminate', ede: { code: 5 } });
    expect(dns.questions.slice(before)).toHaveLength(1);
  });

  it("a SERVFAIL outside DNSSEC is retried, and the first reply's Extended DNS Error is kept over the cached one", async () => {
    const before = dns.questions.length;
    const answer = await createDnsLookup(config({ tries: 2 })).lookup('unreachable.example.test', 'A');
    expect(answer).toMatchObject({ failure: 'servfail', dnssec: 'indeterminate', ede: { code: 22, text: 'no reachable authority' } });
    expect(dns.questions.slice(before)).toHaveLength(2);
  });

  it('asks with AD in the header, so a resolver reached without EDNS (no DO bit) still says secure', async () => {
    const old = await startTestDnsServer({ records: [{ name: 'signed.old.test', type: 'A', data: '192.0.2.7' }], noEdns: true, secure: ['old.test'] });
    try {
      const answer = await createDnsLookup(config({ servers: [old.server] })).lookup('signed.old.test', 'A');
      expect(answer).toMatchObject({ ok: true, dnssec: 'secure' });
      expect(old.questions.map((q) => [q.edns, q.dnssecOk, q.authenticatedData])).toEqual([
        [true, true, true],
        [false, false, true],
      ]);
    } finally {
      await old.close();
    }
  });

  it('NXDOMAIN with AD is secure (an authenticated denial); a timeout carries no status', async () => {
    const signedZone = await startTestDnsServer({
      records: [
        {
          name: 'zone.signed.test',
          type: 'SOA',
          data: { mname: 'ns.signed.test', rname: 'h.signed.test', serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1 },
        },
      ],
      secure: ['signed.test'],
      behaviours: { 'silent.signed.test': 'timeout' },
    });
    try {
      const lookup = createDnsLookup(config({ servers: [signedZone.server] }));
      expect(await lookup.lookup('nothing.zone.signed.test', 'A')).toMatchObject({ failure: 'nxdomain', dnssec: 'secure' });
      const silent = await lookup.lookup('silent.signed.test', 'A');
      expect(silent).toMatchObject({ failure: 'timeout' });
      expect(silent.dnssec).toBeUndefined();
    } finally {
      await signedZone.close();
    }
  });

  it('has words for every registered code 0-24 and a fallback beyond', () => {
    for (let code = 0; code <= 24; code += 1) expect(edeMeaning(code)).not.toMatch(/Extended DNS Error/);
    expect(edeMeaning(99)).toBe('the resolver reported Extended DNS Error 99');
  });
});
