import { describe, expect, it } from 'vitest';
import { createDnssecTally } from '../../resolvers/checks/dns/dnssec-tally.js';
import type { DnsAnswer } from '../../clients/dns/dns-types.js';

const ok = (name: string, dnssec: 'secure' | 'insecure'): DnsAnswer => ({ ok: true, name, type: 'TXT', records: [], dnssec });
const expired: DnsAnswer = {
  ok: false,
  name: '_dmarc.expired.example',
  type: 'TXT',
  failure: 'servfail',
  detail: 'the resolver failed to look up TXT _dmarc.expired.example (SERVFAIL)',
  dnssec: 'bogus',
  ede: { code: 7, meaning: 'the DNSSEC signature has expired', text: 'RRSIG expired' },
};
const timeout: DnsAnswer = {
  ok: false,
  name: 'slow.example',
  type: 'A',
  failure: 'timeout',
  detail: 'A slow.example: 127.0.0.1:53 did not answer within 300 ms',
};

async function verdictOf(answers: readonly DnsAnswer[]) {
  const tally = createDnssecTally();
  await Promise.all(answers.map((answer) => tally.track(answer.name, answer.type, Promise.resolve(answer))));
  return tally.verdict();
}

describe("a check's DNSSEC status is the weakest of its answers", () => {
  it('is null when the check used no DNS answer', async () => {
    expect(await verdictOf([])).toBeNull();
  });

  it('is secure only when every answer had AD', async () => {
    expect(await verdictOf([ok('a.example', 'secure'), ok('b.example', 'secure')])).toEqual({
      status: 'secure',
      reason: 'The resolver validated all 2 DNS answers this check used (AD set on each).',
      answers: 2,
      validated: 2,
      name: null,
      type: null,
      extendedDnsError: null,
    });
  });

  it('one answer without AD makes it insecure, naming the first such answer', async () => {
    expect(await verdictOf([ok('a.example', 'secure'), ok('include.example', 'insecure'), ok('c.example', 'insecure')])).toMatchObject({
      status: 'insecure',
      answers: 3,
      validated: 1,
      name: 'include.example',
      reason: expect.stringMatching(/^2 of the 3 DNS answers this check used came without AD/),
    });
  });

  it('an answer with no reply to read (a timeout) makes it indeterminate, over insecure', async () => {
    expect(await verdictOf([ok('a.example', 'insecure'), timeout])).toMatchObject({
      status: 'indeterminate',
      name: 'slow.example',
      type: 'A',
      reason: 'The DNSSEC status of A slow.example is unknown: A slow.example: 127.0.0.1:53 did not answer within 300 ms.',
    });
  });

  it("a bogus answer wins over everything, with the resolver's Extended DNS Error as the reason", async () => {
    expect(await verdictOf([ok('a.example', 'secure'), timeout, expired])).toEqual({
      status: 'bogus',
      reason: 'The resolver failed DNSSEC validation of TXT _dmarc.expired.example: the DNSSEC signature has expired (Extended DNS Error 7: RRSIG expired).',
      answers: 3,
      validated: 1,
      name: '_dmarc.expired.example',
      type: 'TXT',
      extendedDnsError: { code: 7, meaning: 'the DNSSEC signature has expired', text: 'RRSIG expired' },
    });
  });

  it('a question asked twice counts once', async () => {
    expect(await verdictOf([ok('a.example', 'secure'), ok('a.example', 'secure')])).toMatchObject({ answers: 1, validated: 1 });
  });

  it('weighs answers in the order asked, not the order they came', async () => {
    const tally = createDnssecTally();
    let answerA: (answer: DnsAnswer) => void = () => undefined;
    const slowA = tally.track('host.example', 'A', new Promise<DnsAnswer>((resolve) => (answerA = resolve)));
    const fastAaaa = tally.track('host.example', 'AAAA', Promise.resolve({ ...timeout, name: 'host.example', type: 'AAAA' } as DnsAnswer));
    await fastAaaa;
    expect(tally.verdict()).toMatchObject({ status: 'indeterminate', type: 'AAAA', answers: 1 });
    answerA({ ...timeout, name: 'host.example', type: 'A' });
    await slowA;
    expect(tally.verdict()).toMatchObject({ status: 'indeterminate', type: 'A', answers: 2 });
  });

  it('names compare without case or the root dot', async () => {
    const tally = createDnssecTally();
    await tally.track('A.Example.', 'TXT', Promise.resolve(ok('a.example', 'secure')));
    await tally.track('a.example', 'TXT', Promise.resolve(ok('a.example', 'insecure')));
    expect(tally.verdict()).toMatchObject({ status: 'secure', answers: 1 });
  });
});
