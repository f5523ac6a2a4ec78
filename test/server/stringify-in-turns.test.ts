import { describe, expect, it } from 'vitest';
import { holdsLargeList, stringifyInTurns } from '../../server/stringify-in-turns.js';

/**
 * The GraphQL door writes a large answer in turns of the event loop (server/stringify-in-turns.ts):
 * its text must be JSON.stringify's, byte for byte, and other work must get turns while it is made.
 */
function verifyEmailLike(count: number) {
  // graphql-js builds results on null-prototype objects.
  const result = Object.create(null) as Record<string, unknown>;
  result.email = 'x';
  return {
    data: {
      verifyEmail: {
        results: Array.from({ length: count }, (_, i) => ({
          ...result,
          email: `person.${i}@example${i % 700}.com`,
          valid: i % 5 === 0 ? null : i % 3 === 0,
          reason: 'deliverable',
          detail: `Mail for example${i % 700}.com goes to its MX hosts — “quoted”, \u2028 and a lone surrogate \ud800.`,
          mx: ['mx1.example.net', 'mx2.example.net'],
          mx_issues: [],
          nested: { deep: [{ a: 1, b: undefined, c: () => 1 }, undefined, Symbol('s')] },
        })),
        counts: { valid: 1, invalid: 2, unknown: 3, disposable: 0, role: 0 },
      },
    },
    extensions: { cost: 1.5, at: new Date(0), nothing: undefined, list: [1, 'two', null, true, Number.NaN] },
  };
}

describe('stringifyInTurns', () => {
  it("writes JSON.stringify's text for answers small and large, odd values included", async () => {
    for (const value of [null, 1, 'text', [], {}, [undefined], { a: undefined }, verifyEmailLike(3), verifyEmailLike(40), verifyEmailLike(5000)])
      expect(await stringifyInTurns(value)).toBe(JSON.stringify(value));
  });

  it('a result holding a list of 500 or more within its first levels is large; a dashboard-like one of short lists is not', () => {
    expect(holdsLargeList(verifyEmailLike(5000))).toBe(true);
    expect(holdsLargeList(verifyEmailLike(500))).toBe(true);
    expect(holdsLargeList(verifyEmailLike(499))).toBe(false);
    expect(holdsLargeList({ data: { a: [{ b: [1, 2] }], c: 'text' } })).toBe(false);
    expect(holdsLargeList([{ data: { list: Array.from({ length: 600 }, () => 1) } }])).toBe(true);
  });

  it('gives the event loop turns while a large answer is written', async () => {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const written = stringifyInTurns(verifyEmailLike(5000));
    await written;
    ticking = false;
    // 5,000 results of about 350 characters: more than twenty turns of 64 KB; the other work ran in between.
    expect(turns).toBeGreaterThan(10);
  });
});
