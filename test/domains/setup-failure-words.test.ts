import { describe, expect, it } from 'vitest';
import { mxStatus } from '../../resolvers/domains/setup/record-status.js';
import type { DnsAnswer, DnsLookup, DnsRecordType } from '../../clients/dns/dns-types.js';
import type { WantedRecord } from '../../resolvers/domains/setup/setup-record.js';

/**
 * A setup record whose lookup failed in a way retrying does not mend (DNSSEC bogus, every server
 * refusing, a resolver that does not recurse) says what is wrong and who can fix it, never "checked
 * again shortly"; a timeout still may.
 */
const record: WantedRecord = { purpose: 'mx', type: 'MX', name: 'example.test', value: 'smtp.google.com', ttl: 3600, priority: 1, required: true };

function failing(answer: Omit<Extract<DnsAnswer, { ok: false }>, 'name' | 'type'>): DnsLookup {
  return {
    lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
      return Promise.resolve({ ...answer, name, type });
    },
    questionsAsked: 0,
  };
}

describe('setup records whose lookup failed', () => {
  it('DNSSEC bogus names the signatures or DS record and the zone operator or registrar', async () => {
    const judged = await mxStatus(record, failing({ ok: false, failure: 'servfail', dnssec: 'bogus', detail: 'the resolver failed (SERVFAIL): DNSSEC Bogus' }));
    expect(judged.status).toBe('unknown');
    expect(judged.detail).toMatch(/DS record at the registrar.*Whoever runs the domain's DNS \(or its registrar\) must/);
    expect(judged.detail).not.toMatch(/checked again shortly|try again/i);
  });

  it('every server refusing names the servers and the delegation', async () => {
    const judged = await mxStatus(record, failing({ ok: false, failure: 'refused', detail: 'no name server of example.test answered MX with authority' }));
    expect(judged.detail).toMatch(/refused, which is an answer, not an outage.*delegation at the registrar/);
    expect(judged.detail).not.toMatch(/checked again shortly|try again/i);
  });

  it("a resolver that does not recurse names DNS_SERVERS and the service's operator", async () => {
    const judged = await mxStatus(record, failing({ ok: false, failure: 'not_recursive', detail: 'the resolver answered without recursion' }));
    expect(judged.detail).toMatch(/DNS_SERVERS.*service operator/);
    expect(judged.detail).not.toMatch(/checked again shortly|try again/i);
  });

  it('a timeout may pass next time, and says it is checked again', async () => {
    const judged = await mxStatus(record, failing({ ok: false, failure: 'timeout', detail: 'no answer' }));
    expect(judged.detail).toContain('It is checked again shortly.');
  });
});
