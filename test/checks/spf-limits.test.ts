import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { createQuestionBudget } from '../../clients/dns/question-budget.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkSpf } from '../../resolvers/checks/spf/check-spf.js';
import type { CheckSpfAnswer } from '../../resolvers/checks/spf/check-spf.js';
import type { SpfTermNode } from '../../resolvers/checks/spf/analyze-spf-tree.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsServer, ZoneRecord } from '../support/dns-server.js';
import { craftedSpfTree, CRAFTED_DOMAIN } from '../../bench/checks-spf.js';

const txt = (name: string, text: string): ZoneRecord => ({ name, type: 'TXT', data: [text] });
const a = (name: string, ip: string): ZoneRecord => ({ name, type: 'A', data: ip });
const aaaa = (name: string, ip: string): ZoneRecord => ({ name, type: 'AAAA', data: ip });
const mx = (name: string, exchange: string, preference = 10): ZoneRecord => ({ name, type: 'MX', data: { preference, exchange } });

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({
    records: [
      ...craftedSpfTree(),
      // Lookup 11 is the 10th a: term of the include; the ip4 before the includes matches first.
      txt('early.lim.test', `v=spf1 ip4:192.0.2.0/24 include:wide.lim.test -all`),
      txt('wide.lim.test', `v=spf1 ${Array.from({ length: 12 }, (_, i) => `a:h${i}.lim.test`).join(' ')} -all`),
      ...Array.from({ length: 12 }, (_, i) => a(`h${i}.lim.test`, `198.51.100.${i}`)),
      // Third void lookup is the second term; the rest must not be asked.
      txt('voids.lim.test', 'v=spf1 a:v1.lim.test a:v2.lim.test a:v3.lim.test a:after1.lim.test a:after2.lim.test -all'),
      // An a: target with only AAAA records: void for an IPv4 client, not for an IPv6 one (RFC 7208 5.3, 4.6.4).
      txt('six.lim.test', 'v=spf1 a:v6only.lim.test a:gone1.lim.test a:gone2.lim.test ip6:2001:db8::/32 ip4:203.0.113.0/24 -all'),
      aaaa('v6only.lim.test', '2001:db8::25'),
      // Exchanges without addresses: pyspf counts each as a void lookup, RFC 7208 and most receivers do not.
      txt('mxvoid.lim.test', 'v=spf1 mx ip4:192.0.2.0/24 -all'),
      mx('mxvoid.lim.test', 'nx1.lim.test', 10),
      mx('mxvoid.lim.test', 'nx2.lim.test', 20),
      mx('mxvoid.lim.test', 'nx3.lim.test', 30),
      txt('ptr.lim.test', 'v=spf1 ptr -all'),
      // Too many MX names: receivers stop at the mx term.
      txt('mxmany.lim.test', 'v=spf1 mx a:after.lim.test -all'),
      ...Array.from({ length: 11 }, (_, i) => mx('mxmany.lim.test', `m${i}.lim.test`, i)),
    ],
  });
});
afterAll(() => dns.close());

function ctx(budget?: number): CheckContext {
  return {
    dns: createDnsLookup(
      { servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 32 },
      budget === undefined ? {} : { budget: createQuestionBudget(budget) },
    ),
    https: { get: () => Promise.reject(new Error('no HTTPS in SPF tests')) },
    now: () => new Date('2026-01-01T00:00:00Z'),
  };
}

/** Every term of the tree, depth first. */
function flatten(terms: readonly SpfTermNode[]): SpfTermNode[] {
  return terms.flatMap((t) => [t, ...(t.children ? flatten(t.children.mechanisms) : [])]);
}

async function asked(run: () => Promise<CheckSpfAnswer>): Promise<{ answer: CheckSpfAnswer; questions: { name: string; type: string }[] }> {
  const before = dns.questions.length;
  const answer = await run();
  return { answer, questions: dns.questions.slice(before) };
}

describe('the SPF audit stops at the RFC 7208 limits', () => {
  it('asks at most 300 questions for 10 includes of 100 a: terms, and says where it stopped', async () => {
    const { answer, questions } = await asked(() => checkSpf({ domain: CRAFTED_DOMAIN }, ctx()));
    expect(questions.length).toBeLessThanOrEqual(300);
    expect(answer.valid).toBe(false);
    expect(answer.expansionStopped).toMatchObject({ reason: 'dns_lookups', term: 'a:h9.i0.crafted.test', domain: 'i0.crafted.test', depth: 1 });
    expect(answer.findings.find((f) => f.code === 'expansion_stopped')?.message).toMatch(/a:h9\.i0\.crafted\.test.*i0\.crafted\.test.*include depth 1/);
    // Terms past the limit are listed, not resolved: none of them was asked about.
    const past = flatten(answer.mechanisms).filter((t) => t.pastLimit);
    expect(past.length).toBeGreaterThan(80);
    expect(questions.some((q) => q.name === 'h50.i0.crafted.test')).toBe(false);
    // Later includes are listed with their term but not expanded.
    expect(answer.mechanisms.filter((t) => t.mechanism === 'include' && t.children === null).length).toBe(9);
    // Unread includes hide their terms, so the count is a floor and says so.
    expect(answer.findings.find((f) => f.code === 'too_many_dns_lookups')?.message).toMatch(/at least 110 DNS lookups/);
  });

  it('with an ip, evaluation, look-ahead and audit together stay under 300 questions', async () => {
    const { answer, questions } = await asked(() => checkSpf({ domain: CRAFTED_DOMAIN, ip: '203.0.113.9' }, ctx()));
    expect(questions.length).toBeLessThanOrEqual(300);
    expect(answer.result).toBe('permerror');
  });

  // The look-ahead may already have asked the later terms' questions (they are fetched together);
  // what must not happen is judging them.
  it('stops after the third void lookup and judges nothing after it', async () => {
    const { answer } = await asked(() => checkSpf({ domain: 'voids.lim.test' }, ctx()));
    expect(answer.expansionStopped).toMatchObject({ reason: 'void_lookups', term: 'a:v3.lim.test', depth: 0 });
    const past = answer.mechanisms.filter((t) => t.pastLimit);
    expect(past.map((t) => t.term)).toEqual(['a:after1.lim.test', 'a:after2.lim.test', '-all']);
    // Listed, not judged: receivers never get there.
    expect(past.every((t) => !t.voidLookup && /not looked up/.test(t.errors.join(' ')))).toBe(true);
    expect(answer.voidLookupCount).toBe(3);
  });

  it('stops at an mx term with more than 10 names', async () => {
    const answer = await checkSpf({ domain: 'mxmany.lim.test' }, ctx());
    expect(answer.expansionStopped).toMatchObject({ reason: 'mx_names', term: 'mx' });
    expect(answer.mechanisms[1]).toMatchObject({ term: 'a:after.lim.test', pastLimit: true, voidLookup: false });
  });

  it('a budget or cancellation failure is a lookup failure with its detail, never a missing record', async () => {
    const answer = await checkSpf({ domain: 'early.lim.test' }, ctx(2));
    expect(answer.status).toBe('error');
    const failed = answer.findings.find((f) => f.code === 'dns_lookup_failed');
    expect(failed?.message).toMatch(/asked its 2 DNS questions/);
    expect(answer.findings.map((f) => f.code)).not.toContain('void_lookups');
    expect(answer.findings.map((f) => f.code)).not.toContain('include_without_spf');
    const withIp = await checkSpf({ domain: 'early.lim.test', ip: '203.0.113.1' }, ctx(1));
    expect(withIp.result).toBe('temperror');
    expect(withIp.summary).toMatch(/DNS questions/);
  });
});

describe('void lookups follow the address family of ip (RFC 7208 5.3, 4.6.4)', () => {
  it('an a: target with only AAAA records is a void lookup for an IPv4 client', async () => {
    const answer = await checkSpf({ domain: 'six.lim.test', ip: '203.0.113.5' }, ctx());
    expect(answer.voidLookupCount).toBe(3);
    expect(answer.result).toBe('permerror');
    expect(answer.mechanisms[0]?.voidLookup).toBe(true);
  });

  it('but not for an IPv6 client', async () => {
    const answer = await checkSpf({ domain: 'six.lim.test', ip: '2001:db8::99' }, ctx());
    expect(answer.voidLookupCount).toBe(2);
    expect(answer).toMatchObject({ result: 'pass', valid: true });
  });

  it('without ip the audit takes an IPv4 client', async () => {
    const answer = await checkSpf({ domain: 'six.lim.test' }, ctx());
    expect(answer.voidLookupCount).toBe(3);
    expect(answer.mechanisms[0]?.errors.join(' ')).toMatch(/no A records/);
  });
});

describe('wording and receiver divergence (issue item 18)', () => {
  it('a record past the lookup limit whose ip matched before the limit says both, and why', async () => {
    const answer = await checkSpf({ domain: 'early.lim.test', ip: '192.0.2.7' }, ctx());
    expect(answer).toMatchObject({ valid: false, result: 'pass', lookupCount: 13 });
    // Every record was read, so the count is exact.
    expect(answer.summary).toMatch(/needs 13 DNS lookups/);
    expect(answer.summary).toMatch(/pass/);
    expect(answer.summary).toMatch(/before the limit/);
    expect(answer.summary).toMatch(/permerror/);
  });

  it('pyspf counts the address lookups of an mx term as void lookups: both outcomes are given', async () => {
    const answer = await checkSpf({ domain: 'mxvoid.lim.test', ip: '192.0.2.7' }, ctx());
    expect(answer).toMatchObject({ valid: true, result: 'pass', voidLookupCount: 0 });
    expect(answer.divergence).toHaveLength(1);
    expect(answer.divergence[0]).toMatchObject({
      rule: 'mx_address_void',
      receivers: ['pyspf', 'policyd-spf'],
      valid: false,
      voidLookupCount: 3,
      result: 'permerror',
    });
    expect(answer.findings.map((f) => f.code)).toContain('receiver_divergence');
    expect(answer.summary).toMatch(/pyspf/);
  });

  it('without ip the divergence is about the record', async () => {
    const answer = await checkSpf({ domain: 'mxvoid.lim.test' }, ctx());
    expect(answer.divergence[0]).toMatchObject({ rule: 'mx_address_void', valid: false, voidLookupCount: 3 });
    expect(answer.divergence[0]?.result).toBeUndefined();
  });

  it('no divergence when receivers agree', async () => {
    const answer = await checkSpf({ domain: 'early.lim.test', ip: '192.0.2.7' }, ctx());
    expect(answer.divergence).toEqual([]);
  });
});

describe('a question kept off the wire is never an answer', () => {
  it('a ptr term whose PTR question the budget refused gives temperror, not "no match"', async () => {
    const { checkHost } = await import('../../resolvers/checks/spf/check-host.js');
    const { parseSpfIp } = await import('../../resolvers/checks/spf/spf-ip.js');
    const dnsLookup = createDnsLookup({ servers: [dns.server], timeoutMs: 300, tries: 1, concurrency: 32 }, { budget: createQuestionBudget(1) });
    const result = await checkHost(
      { ip: parseSpfIp('192.0.2.1')!, domain: 'ptr.lim.test', sender: 'x@ptr.lim.test', helo: 'ptr.lim.test' },
      { dns: dnsLookup, now: () => new Date(), lookahead: false },
    );
    expect(result.result).toBe('temperror');
    expect(result.problem).toMatch(/asked its 1 DNS questions/);
  });
});
