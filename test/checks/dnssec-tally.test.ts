import { describe, expect, it } from 'vitest';
import { createDnssecTally } from '../../resolvers/checks/dns/dnssec-tally.js';
import type { DnsAnswer } from '../../resolvers/checks/dns/dns-types.js';

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

function verdictOf(answers: readonly DnsAnswer[]) {
  const tally = createDnssecTally();
  for (const answer of answers) tally.note(answer);
  return tally.verdict();
}

describe("a check's DNSSEC status is the weakest of its answers", () => {
  it('is null when the check used no DNS answer', () => {
    expect(verdictOf([])).toBeNull();
  });

  it('is secure only when every answer had AD', () => {
    expect(verdictOf([ok('a.example', 'secure'), ok('b.example', 'secure')])).toEqual({
      status: 'secure',
      reason: 'The resolver validated all 2 DNS answers this check used (AD set on each).',
      answers: 2,
      validated: 2,
      name: null,
      type: null,
      extended_dns_error: null,
    });
  });

  it('one answer without AD makes it insecure, naming the first such answer', () => {
    expect(verdictOf([ok('a.example', 'secure'), ok('include.example', 'insecure'), ok('c.example', 'insecure')])).toMatchObject({
      status: 'insecure',
      answers: 3,
      validated: 1,
      name: 'include.example',
      reason: expect.stringMatching(/^2 of the 3 DNS answers this check used came without AD/),
    });
  });

  it('an answer with no reply to read (a timeout) makes it indeterminate, over insecure', () => {
    expect(verdictOf([ok('a.example', 'insecure'), timeout])).toMatchObject({
      status: 'indeterminate',
      name: 'slow.example',
      type: 'A',
      reason: 'The DNSSEC status of A slow.example is unknown: A slow.example: 127.0.0.1:53 did not answer within 300 ms.',
    });
  });

  it("a bogus answer wins over everything, with the resolver's Extended DNS Error as the reason", () => {
    expect(verdictOf([ok('a.example', 'secure'), timeout, expired])).toEqual({
      status: 'bogus',
      reason: 'The resolver failed DNSSEC validation of TXT _dmarc.expired.example: the DNSSEC signature has expired (Extended DNS Error 7: RRSIG expired).',
      answers: 3,
      validated: 1,
      name: '_dmarc.expired.example',
      type: 'TXT',
      extended_dns_error: { code: 7, meaning: 'the DNSSEC signature has expired', text: 'RRSIG expired' },
    });
  });

  it('a question asked twice counts once', () => {
    expect(verdictOf([ok('a.example', 'secure'), ok('a.example', 'secure')])).toMatchObject({ answers: 1, validated: 1 });
  });
});
