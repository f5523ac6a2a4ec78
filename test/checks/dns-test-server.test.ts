import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer, startTestDnsServersOnOnePort } from '../support/dns-server.js';
import type { TestDnsServer } from '../support/dns-server.js';

/** The local DNS server behaves like real ones where the checks depend on it. */
let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      { name: 'Mixed.Example.TEST', type: 'A', data: '192.0.2.1' },
      { name: '*.wild.test', type: 'TXT', data: ['from the wildcard'] },
      { name: '*.wild.test', type: 'CNAME', data: 'target.wild.test' },
      { name: 'target.wild.test', type: 'A', data: '192.0.2.5' },
      { name: 'exists.wild.test', type: 'MX', data: { preference: 10, exchange: 'mx.wild.test' } },
      { name: 'deep.ent.wild.test', type: 'A', data: '192.0.2.6' },
    ],
  });
});
afterAll(() => dns.close());

const lookup = () => createDnsLookup({ servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 4 });

describe('the test DNS server', () => {
  it("keeps the owner name's case and matches it case-insensitively", async () => {
    expect(await lookup().lookup('mixed.example.test', 'A')).toMatchObject({ ok: true, records: [{ data: '192.0.2.1' }] });
    expect(dns.questions.at(-1)).toMatchObject({ name: 'mixed.example.test', asked: 'mixed.example.test' });
  });

  it('synthesises a wildcard for a name that does not exist (RFC 4592), not for one that does', async () => {
    const l = lookup();
    // A wildcard CNAME beside a wildcard TXT: TXT asks get the TXT, other types follow the CNAME.
    expect(await l.lookup('anything.wild.test', 'TXT')).toMatchObject({ ok: true, records: [{ data: ['from the wildcard'] }] });
    expect(await l.lookup('a.b.wild.test', 'A')).toMatchObject({ ok: true, records: [{ data: '192.0.2.5' }] });
    // exists.wild.test exists (an MX), so the wildcard does not apply: no data, not the TXT.
    expect(await l.lookup('exists.wild.test', 'TXT')).toMatchObject({ ok: false, failure: 'nodata' });
    // An empty non-terminal exists too: no data, and no wildcard below its own level either.
    expect(await l.lookup('ent.wild.test', 'TXT')).toMatchObject({ ok: false, failure: 'nodata' });
    expect(await l.lookup('x.ent.wild.test', 'TXT')).toMatchObject({ ok: false, failure: 'nxdomain' });
  });

  it('records transport and flags of each question', async () => {
    await lookup().lookup('mixed.example.test', 'A');
    expect(dns.questions.at(-1)).toMatchObject({ transport: 'udp', edns: true, dnssecOk: true, recursionDesired: true });
  });

  it('runs several servers on one port at 127.0.0.2, 127.0.0.3, with AA per server', async () => {
    const [a, b] = await startTestDnsServersOnOnePort([
      { address: '127.0.0.2', records: [{ name: 'z.test', type: 'A', data: '192.0.2.2' }] },
      { address: '127.0.0.3', records: [{ name: 'z.test', type: 'A', data: '192.0.2.3' }], authoritative: false },
    ]);
    try {
      expect(a!.port).toBe(b!.port);
      const l = createDnsLookup({ servers: [a!.server], timeoutMs: 300, tries: 1, concurrency: 4, authoritativePort: a!.port });
      const fromA = await l.askServer!('127.0.0.2', 'z.test', 'A');
      const fromB = await l.askServer!('127.0.0.3', 'z.test', 'A');
      expect(fromA).toMatchObject({ ok: true, authoritative: true, answer: { ok: true, records: [{ data: '192.0.2.2' }] } });
      expect(fromB).toMatchObject({ ok: true, authoritative: false, answer: { ok: true, records: [{ data: '192.0.2.3' }] } });
      expect(b!.questions.at(-1)).toMatchObject({ recursionDesired: false });
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });
});
