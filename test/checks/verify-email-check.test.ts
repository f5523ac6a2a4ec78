import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { VERIFY_EMAIL_LIMIT } from '../../resolvers/checks/bulk-input.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { isDisposableDomain, isRoleLocalPart, verifyEmail } from '../../resolvers/checks/verify-email/verify-email.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';

const mx = (name: string, exchange: string, preference = 10): ZoneRecord => ({ name, type: 'MX', data: { preference, exchange } });

const records: ZoneRecord[] = [
  mx('good.example', 'mx2.good.example', 20),
  mx('good.example', 'mx1.good.example', 10),
  { name: 'mx1.good.example', type: 'A', data: '192.0.2.1' },
  { name: 'mx2.good.example', type: 'A', data: '192.0.2.2' },
  mx('nullmx.example', '.', 0),
  { name: 'nullmx.example', type: 'A', data: '192.0.2.3' },
  { name: 'implicit.example', type: 'AAAA', data: '2001:db8::25' },
  { name: 'nothing.example', type: 'TXT', data: ['v=spf1 -all'] },
  mx('dangling.example', 'mx.gone.example'),
  { name: 'v6mx.example', type: 'MX', data: { preference: 5, exchange: 'mx.v6mx.example' } },
  { name: 'mx.v6mx.example', type: 'AAAA', data: '2001:db8::26' },
  mx('mailinator.com', 'mx.good.example'),
  mx('sub.mailinator.com', 'mx1.good.example'),
  mx('xn--bcher-kva.example', 'mx1.good.example'),
  // MX rules: a null MX beside a real one, an alias as MX host, an address as MX.
  mx('halfnull.example', '.', 0),
  mx('halfnull.example', 'mx1.good.example', 10),
  mx('aliasmx.example', 'mail.aliasmx.example'),
  { name: 'mail.aliasmx.example', type: 'CNAME', data: 'mx1.good.example' },
  mx('ipmx.example', '192.0.2.1'),
  // Eight hosts, none with an address: only the five most preferred are looked up.
  ...Array.from({ length: 8 }, (_, i) => mx('many.example', `h${i}.many.example`, i)),
  { name: 'many.example', type: 'TXT', data: ['v=spf1 -all'] },
];

let server: TestDnsServer;
beforeAll(async () => {
  server = await startTestDnsServer({ records, behaviours: { 'slow.example': 'timeout', 'broken.example': 'servfail' } });
});
afterAll(() => server.close());

const ctx = (concurrency = 32): CheckContext => ({
  dns: createDnsLookup({ servers: [server.server], timeoutMs: 300, tries: 1, concurrency }),
  https: { get: () => Promise.reject(new Error('no HTTPS in verify-email tests')) },
  now: () => new Date('2026-09-26T00:00:00Z'),
});

describe('verify-email', () => {
  it('a domain whose MX hosts resolve is valid, with its MX records lowest preference first', async () => {
    const { results, catchAllNote: catch_all_note } = await verifyEmail({ emails: 'ana@good.example' }, ctx());
    expect(results[0]).toMatchObject({
      email: 'ana@good.example',
      valid: true,
      syntaxValid: true,
      reason: 'deliverable',
      domain: 'good.example',
      implicitMx: false,
      nullMx: false,
      mx: [
        { preference: 10, exchange: 'mx1.good.example' },
        { preference: 20, exchange: 'mx2.good.example' },
      ],
      disposable: false,
      role: false,
    });
    expect(catch_all_note).toMatch(/No SMTP connection.*catch-all/);
  });

  it('a null MX (RFC 7505) takes no mail even though the domain has an address', async () => {
    const { results } = await verifyEmail({ emails: 'bo@nullmx.example' }, ctx());
    expect(results[0]).toMatchObject({ valid: false, reason: 'null_mx', nullMx: true, mx: [] });
  });

  it('no MX but an AAAA record is an implicit MX (RFC 5321 5.1) and valid', async () => {
    const { results } = await verifyEmail({ emails: 'cy@implicit.example' }, ctx());
    expect(results[0]).toMatchObject({ valid: true, implicitMx: true, mx: [{ preference: 0, exchange: 'implicit.example' }] });
  });

  it('no MX and no address is invalid; NXDOMAIN is invalid; dangling MX hosts are invalid; an IPv6-only MX host is valid', async () => {
    const { results } = await verifyEmail({ emails: ['a@nothing.example', 'b@absent.example', 'c@dangling.example', 'd@v6mx.example'] }, ctx());
    expect(results.map((r) => [r.valid, r.reason])).toEqual([
      [false, 'no_mail_route'],
      [false, 'domain_not_found'],
      [false, 'mail_hosts_do_not_resolve'],
      [true, 'deliverable'],
    ]);
  });

  it('flags a null MX beside other MX records, an alias MX host and an address as MX, saying what to change', async () => {
    const { results, findings } = await verifyEmail({ emails: ['a@halfnull.example', 'b@aliasmx.example', 'c@ipmx.example', 'd@good.example'] }, ctx());
    expect(results.map((r) => [r.valid, r.reason, r.mxIssues.map((f) => f.code)])).toEqual([
      [true, 'deliverable', ['mx_null_with_others']],
      [true, 'deliverable', ['mx_is_cname']],
      [false, 'mail_hosts_do_not_resolve', ['mx_is_address']],
      [true, 'deliverable', []],
    ]);
    expect(results[1]!.mxIssues[0]!.message).toMatch(/Point the MX at mx1\.good\.example directly/);
    expect(results[2]!.mxIssues[0]!.message).toMatch(/host name with an A record/);
    expect(findings.map((f) => f.code)).toContain('mx_misconfigured');
  });

  it('looks up at most the five most preferred MX hosts of a domain', async () => {
    const before = server.questions.length;
    const { results } = await verifyEmail({ emails: 'e@many.example' }, ctx());
    const hosts = new Set(
      server.questions
        .slice(before)
        .map((q) => q.name)
        .filter((n) => n.endsWith('.many.example')),
    );
    expect([...hosts].sort()).toEqual(['h0.many.example', 'h1.many.example', 'h2.many.example', 'h3.many.example', 'h4.many.example']);
    expect(results[0]).toMatchObject({ valid: null, reason: 'mail_hosts_not_looked_up' });
    expect(results[0]!.detail).toMatch(/3 other host\(s\) were not looked up/);
  });

  it('a timeout or SERVFAIL is valid null with the lookup named, never "no mail"', async () => {
    const answer = await verifyEmail({ emails: 'a@slow.example,b@broken.example' }, ctx());
    expect(answer.results.map((r) => [r.valid, r.reason])).toEqual([
      [null, 'dns_lookup_failed'],
      [null, 'dns_lookup_failed'],
    ]);
    expect(answer.results[0]?.detail).toMatch(/timeout/);
    expect(answer.status).toBe('error');
  });

  it('bad syntax is answered per address without a lookup', async () => {
    const before = server.questions.length;
    const { results } = await verifyEmail({ emails: ['"quoted"@good.example', 'no-at-sign', 'x@[192.0.2.1]'] }, ctx());
    expect(results.map((r) => [r.syntaxValid, r.valid, r.reason])).toEqual([
      [false, false, 'invalid_syntax'],
      [false, false, 'invalid_syntax'],
      [false, false, 'invalid_syntax'],
    ]);
    expect(server.questions.length).toBe(before);
  });

  it('disposable domains match subdomains, and role local parts ignore a +tag', async () => {
    const { results } = await verifyEmail({ emails: 'x@mailinator.com,info+eu@sub.mailinator.com,Sales@good.example' }, ctx());
    expect(results.map((r) => [r.disposable, r.role])).toEqual([
      [true, false],
      [true, true],
      [false, true],
    ]);
    expect(isDisposableDomain('mailinator.com.good.example')).toBe(false);
    expect(isRoleLocalPart('ana.perez')).toBe(false);
  });

  it('an internationalised domain is looked up as its A-label and echoed in Unicode', async () => {
    const { results } = await verifyEmail({ emails: 'hans@bücher.example' }, ctx());
    expect(results[0]).toMatchObject({ valid: true, domain: 'xn--bcher-kva.example', domainUnicode: 'bücher.example' });
  });

  it('duplicates are answered once, and over the limit is a 400 naming it', async () => {
    const { results } = await verifyEmail({ emails: 'ana@good.example, ana@good.example,,' }, ctx());
    expect(results).toHaveLength(1);
    const emails = Array.from({ length: VERIFY_EMAIL_LIMIT + 1 }, (_, i) => `u${i}@good.example`);
    const error = await verifyEmail({ emails }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).detail).toContain(`limit is ${VERIFY_EMAIL_LIMIT}`);
  });
});

describe('verify-email batching', () => {
  // 400 domains: 300 with MX on 20 shared hosts, 50 implicit MX, 50 NXDOMAIN; 5 addresses each.
  const bulk: ZoneRecord[] = [];
  for (let i = 0; i < 400; i += 1) {
    if (i < 300) bulk.push(mx(`d${i}.bulk.example`, `mx${i % 20}.hosts.example`));
    else if (i < 350) bulk.push({ name: `d${i}.bulk.example`, type: 'A', data: '192.0.2.9' });
  }
  for (let h = 0; h < 20; h += 1) bulk.push({ name: `mx${h}.hosts.example`, type: 'A', data: `192.0.2.${100 + h}` });
  const emails = Array.from({ length: 2000 }, (_, n) => `user${Math.floor(n / 400)}@d${n % 400}.bulk.example`);

  it('2,000 addresses on 400 domains ask each (name, type) once, with at most DNS_CONCURRENCY in flight', async () => {
    const concurrency = 16;
    const delayMs = 40;
    const bulkServer = await startTestDnsServer({ records: bulk, delayMs });
    try {
      const lookup = createDnsLookup({ servers: [bulkServer.server], timeoutMs: 2000, tries: 1, concurrency });
      const started = performance.now();
      const answer = await verifyEmail({ emails }, { ...ctx(), dns: lookup });
      const wall = performance.now() - started;
      // Never more than the cap in flight: the server held at most that many questions unanswered at
      // once (each answer waits delayMs there), and more than one, so the questions did overlap. Counted
      // at the server throughout the run, not sampled after a fixed wait that a loaded machine stretches.
      expect(bulkServer.mostUnanswered).toBeGreaterThan(1);
      expect(bulkServer.mostUnanswered).toBeLessThanOrEqual(concurrency);

      const keys = bulkServer.questions.map((q) => `${q.name}|${q.type}`);
      expect(keys.length).toBe(new Set(keys).size);
      // 400 MX + 20 host A (an alias shows in the A answer's chain) + 100 A/AAAA for the no-MX domains.
      expect(new Set(keys).size).toBe(520);
      expect(lookup.questionsAsked).toBe(520);
      expect(wall).toBeGreaterThanOrEqual(Math.floor(520 / concurrency) * delayMs * 0.9);
      expect(answer.counts).toMatchObject({ valid: 1750, invalid: 250, unknown: 0 });
    } finally {
      await bulkServer.close();
    }
  });
});
