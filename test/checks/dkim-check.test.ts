import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { checkDkim } from '../../resolvers/checks/dkim/check-dkim.js';
import { COMMON_DKIM_SELECTORS } from '../../resolvers/checks/dkim/common-selectors.js';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';

const spki = (bits: number): string => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const rsa2048 = spki(2048);
const rsa1024 = spki(1024);
const rsa512 = spki(512);
// RFC 8463: the raw 32 key bytes, i.e. the SubjectPublicKeyInfo minus its 12-byte prefix.
const ed25519 = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');

const txt = (name: string, ...texts: string[]): ZoneRecord[] => texts.map((t) => ({ name, type: 'TXT', data: [t] }));

const records: ZoneRecord[] = [
  ...txt('google._domainkey.both.example', `v=DKIM1; k=rsa; p=${rsa2048}`),
  ...txt('selector1._domainkey.both.example', `v=DKIM1; k=rsa; p=${rsa1024}`),
  ...txt('s1._domainkey.one.example', `v=DKIM1; k=rsa; p=${rsa2048}`),
  ...txt('custom2024._domainkey.hidden.example', `v=DKIM1; p=${rsa2048}`),
  { name: 'nodkim.example', type: 'A', data: '192.0.2.1' },
  ...txt('revoked._domainkey.one.example', 'v=DKIM1; p='),
  ...txt('weak._domainkey.one.example', `v=DKIM1; p=${rsa512}`),
  ...txt('test._domainkey.one.example', `v=DKIM1; t=y; p=${rsa2048}`),
  ...txt('ed._domainkey.one.example', `v=DKIM1; k=ed25519; p=${ed25519}`),
  ...txt('hashes._domainkey.one.example', `v=DKIM1; h=sha1; p=${rsa2048}`),
  ...txt('twice._domainkey.one.example', `v=DKIM1; p=${rsa2048}`, `v=DKIM1; p=${rsa1024}`),
  ...txt('broken._domainkey.one.example', 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAy3Z9ffZe8gUTJrdG'),
  // A selector delegated to the sending service by CNAME, as SendGrid and Microsoft 365 do.
  { name: 's1._domainkey.delegated.example', type: 'CNAME', data: 's1.domainkey.u123.wl.esp.example' },
  ...txt('s1.domainkey.u123.wl.esp.example', `v=DKIM1; k=rsa; p=${rsa2048}`),
  // Not keys: a verification token at a guessed name must not be reported while scanning.
  ...txt('google._domainkey.token.example', 'google-site-verification=abc123'),
  { name: 'token.example', type: 'A', data: '192.0.2.2' },
  // One valid key and a revoked one at two common selectors.
  ...txt('s1._domainkey.rotated.example', `v=DKIM1; p=${rsa2048}`),
  ...txt('s2._domainkey.rotated.example', 'v=DKIM1; p='),
  { name: 'flaky.example', type: 'A', data: '192.0.2.3' },
  // A wildcard TXT answers every name that does not exist, _domainkey selectors included.
  ...txt('*.wildspf.example', 'v=spf1 include:_spf.esp.example ~all'),
  { name: 'wildspf.example', type: 'A', data: '192.0.2.4' },
  ...txt('*.wildkey.example', `v=DKIM1; p=${rsa1024}`),
  // A wildcard under _domainkey beside a key of its own at google.
  ...txt('*._domainkey.mixed.example', 'v=spf1 -all'),
  ...txt('google._domainkey.mixed.example', `v=DKIM1; p=${rsa2048}`),
  // Keys below a _domainkey that the provider answers NXDOMAIN for (RFC 8020 broken).
  ...txt('s1._domainkey.nx8020.example', `v=DKIM1; p=${rsa2048}`),
];

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startTestDnsServer({
    records,
    behaviours: { '_domainkey.nx8020.example': 'nxdomain', 'k2._domainkey.flaky.example': 'servfail', 'down._domainkey.one.example': 'timeout' },
  });
});
afterAll(() => dns.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(dns);
const codes = (answer: { findings: readonly { code: string }[] }): string[] => answer.findings.map((f) => f.code);

describe('checkDkim with a selector', () => {
  it('passes a valid 2048-bit key published over several TXT character-strings', async () => {
    const answer = await checkDkim({ domain: 'One.Example.', selector: 's1' }, ctx());
    expect(answer).toMatchObject({ status: 'pass', domain: 'one.example', selector: 's1', selectorsChecked: ['s1'], domainkeyExists: null });
    expect(answer.keys).toEqual([
      expect.objectContaining({
        selector: 's1',
        valid: true,
        keyType: 'rsa',
        keyBits: 2048,
        testing: false,
        hashAlgorithms: [],
        serviceTypes: ['*'],
        findings: [],
      }),
    ]);
    expect(answer.keys[0]!.record).toBe(`v=DKIM1; k=rsa; p=${rsa2048}`);
  });

  it('fails with a clear finding when the selector has no key', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'nosuch' }, ctx());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toEqual(['dkim_selector_not_found']);
    expect(answer.findings[0]!.message).toContain('nosuch._domainkey.one.example');
    expect(answer.keys).toEqual([]);
  });

  it('reports a timed-out lookup as an error, not as a missing key', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'down' }, ctx());
    expect(answer.status).toBe('error');
    expect(codes(answer)).toEqual(['dkim_lookup_failed']);
    expect(answer.summary).toMatch(/failed/);
  });

  it('follows a CNAME-delegated selector to the key', async () => {
    const answer = await checkDkim({ domain: 'delegated.example', selector: 's1' }, ctx());
    expect(answer.status).toBe('pass');
    expect(answer.keys[0]).toMatchObject({ valid: true, keyBits: 2048 });
  });

  it('fails a revoked key', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'revoked' }, ctx());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toEqual(['dkim_key_revoked']);
    expect(answer.keys[0]).toMatchObject({ valid: false, keyBits: null });
  });

  it('fails an RSA key under 1024 bits', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'weak' }, ctx());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toEqual(['dkim_key_too_weak']);
    expect(answer.keys[0]!.keyBits).toBe(512);
  });

  it('warns about a key in testing mode', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'test' }, ctx());
    expect(answer.status).toBe('warn');
    expect(answer.keys[0]!.testing).toBe(true);
    expect(codes(answer)).toEqual(['dkim_testing_mode']);
  });

  it('reads an ed25519 key as 256 bits', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'ed' }, ctx());
    expect(answer.status).toBe('pass');
    expect(answer.keys[0]).toMatchObject({ keyType: 'ed25519', keyBits: 256, valid: true });
  });

  it('fails a key whose h= leaves out sha256', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'hashes' }, ctx());
    expect(answer.status).toBe('fail');
    expect(answer.keys[0]!.hashAlgorithms).toEqual(['sha1']);
    expect(codes(answer)).toEqual(['dkim_hash_restricted']);
  });

  it('fails a selector with two TXT records', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'twice' }, ctx());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toContain('dkim_multiple_records');
  });

  it('fails a truncated key as unparsable', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'broken' }, ctx());
    expect(answer.status).toBe('fail');
    expect(codes(answer)).toEqual(['dkim_record_invalid']);
    expect(answer.findings[0]!.message).toMatch(/truncated/);
  });

  it('accepts a selector written with its _domainkey suffix', async () => {
    const answer = await checkDkim({ domain: 'one.example', selector: 'S1._domainkey.one.example' }, ctx());
    expect(answer.selector).toBe('s1');
    expect(answer.status).toBe('pass');
  });

  it('refuses a selector that is not a DNS label with a 400 saying what to pass', async () => {
    const error = await checkDkim({ domain: 'one.example', selector: 'bad selector!' }, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)?.status).toBe(400);
    expect((error as DomainError).detail).toMatch(/s= value/);
  });
});

describe('checkDkim without a selector', () => {
  it('scans the 26 common selectors and reports every key found', async () => {
    const before = dns.questions.length;
    const answer = await checkDkim({ domain: 'both.example' }, ctx());
    expect(answer.selectorsChecked).toHaveLength(26);
    expect(new Set(answer.selectorsChecked).size).toBe(26);
    expect(answer.selector).toBeNull();
    expect(answer.keys.map((k) => k.selector).sort()).toEqual(['google', 'selector1']);
    expect(answer.status).toBe('warn'); // selector1 is 1024 bits
    expect(codes(answer)).toEqual(['dkim_key_1024']);
    const asked = dns.questions.slice(before).map((q) => q.name);
    for (const selector of COMMON_DKIM_SELECTORS) expect(asked).toContain(`${selector}._domainkey.both.example`);
    expect(asked).toContain('_domainkey.both.example');
  });

  it('says keys may exist under other selectors when _domainkey exists but no guess hits', async () => {
    const answer = await checkDkim({ domain: 'hidden.example' }, ctx());
    expect(answer).toMatchObject({ status: 'warn', domainkeyExists: true, keys: [] });
    expect(codes(answer)).toEqual(['dkim_selector_not_guessed']);
    expect(answer.summary).toMatch(/selectors we did not guess/);
  });

  it('fails when there is no _domainkey subtree at all', async () => {
    const answer = await checkDkim({ domain: 'nodkim.example' }, ctx());
    expect(answer).toMatchObject({ status: 'fail', domainkeyExists: false, keys: [] });
    expect(codes(answer)).toEqual(['dkim_not_found']);
    expect(answer.summary).toMatch(/NXDOMAIN/);
  });

  it('does not count a non-key TXT record at a guessed selector as a key', async () => {
    const answer = await checkDkim({ domain: 'token.example' }, ctx());
    expect(answer.keys).toEqual([]);
    expect(codes(answer)).toEqual(['dkim_selector_not_guessed']);
  });

  it('treats a revoked key beside a valid one as information only', async () => {
    const answer = await checkDkim({ domain: 'rotated.example' }, ctx());
    expect(answer.status).toBe('pass');
    expect(answer.keys.find((k) => k.selector === 's2')).toMatchObject({ valid: false });
    expect(answer.findings).toEqual([expect.objectContaining({ code: 'dkim_key_revoked', severity: 'info' })]);
  });

  it('answers error when a selector lookup failed and no key was found', async () => {
    const answer = await checkDkim({ domain: 'flaky.example' }, ctx());
    expect(answer.status).toBe('error');
    expect(codes(answer)).toEqual(['dkim_lookup_failed']);
    expect(answer.summary).toContain('k2');
  });

  it('asks a random 16-character selector beside the common ones, in the same round trip', async () => {
    const before = dns.questions.length;
    const answer = await checkDkim({ domain: 'one.example' }, ctx());
    const known = new Set<string>(['_domainkey', ...COMMON_DKIM_SELECTORS]);
    const probes = dns.questions
      .slice(before)
      .map((q) => q.name.split('._domainkey.')[0]!)
      .filter((label) => !known.has(label) && label !== '_domainkey.one.example');
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatch(/^[a-z0-9]{16}$/);
    expect(answer.wildcard).toBe(false);
  });

  it('a wildcard SPF TXT is not a _domainkey subtree: no key, no "selectors we did not guess", a wildcard finding', async () => {
    const answer = await checkDkim({ domain: 'wildspf.example' }, ctx());
    expect(answer).toMatchObject({ status: 'warn', keys: [], wildcard: true, domainkeyExists: null });
    expect(codes(answer)).toEqual(['dkim_wildcard']);
    expect(answer.summary).toMatch(/wildcard/);
  });

  it('a wildcard holding key text is not reported as 26 keys, and the finding says the wildcard holds a key', async () => {
    const answer = await checkDkim({ domain: 'wildkey.example' }, ctx());
    expect(answer.keys).toEqual([]);
    expect(answer.wildcard).toBe(true);
    expect(answer.findings[0]).toMatchObject({ code: 'dkim_wildcard', message: expect.stringMatching(/wildcard itself holds DKIM key text/) });
  });

  it("under a wildcard, a selector whose key differs from the wildcard's text is still reported", async () => {
    const answer = await checkDkim({ domain: 'mixed.example' }, ctx());
    expect(answer.keys.map((k) => k.selector)).toEqual(['google']);
    expect(answer.status).toBe('warn');
    expect(codes(answer)).toEqual(['dkim_wildcard']);
    expect(answer.findings[0]!.message).toMatch(/selector1, selector2/);
  });

  it('still finds the keys when the provider answers NXDOMAIN for _domainkey (RFC 8020 broken), and says so', async () => {
    const answer = await checkDkim({ domain: 'nx8020.example' }, ctx());
    expect(answer.keys.map((k) => k.selector)).toEqual(['s1']);
    expect(answer.status).toBe('warn');
    expect(codes(answer)).toEqual(['dkim_parent_nxdomain']);
    expect(answer.findings[0]!.message).toMatch(/RFC 8020/);
  });

  it('asks all selectors concurrently (the DNS server holds them unanswered at once, not one by one)', async () => {
    const slow = await startTestDnsServer({ records, delayMs: 150 });
    try {
      await checkDkim({ domain: 'both.example' }, { ...ctx(), dns: createDnsLookup({ servers: [slow.server], timeoutMs: 2000, tries: 1, concurrency: 32 }) });
      // Counted at the server, not timed: asked one after another, at most one would wait at a time.
      const selectorQuestions = slow.questions.filter((q) => q.name.endsWith('._domainkey.both.example')).length;
      expect(selectorQuestions).toBeGreaterThanOrEqual(20);
      expect(slow.mostUnanswered).toBeGreaterThanOrEqual(20);
    } finally {
      await slow.close();
    }
  });
});
