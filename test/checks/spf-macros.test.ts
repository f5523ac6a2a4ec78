import { describe, expect, it } from 'vitest';
import { parseDomainSpec, parseMacroString } from '../../resolvers/checks/spf/spf-macro-string.js';
import { expandMacros, targetName, urlEscape } from '../../resolvers/checks/spf/expand-spf-macros.js';
import type { SpfMacroContext } from '../../resolvers/checks/spf/expand-spf-macros.js';
import { parseSpfIp } from '../../resolvers/checks/spf/spf-ip.js';
import type { SpfIp } from '../../resolvers/checks/spf/spf-ip.js';

function context(ip: string, overrides: Partial<SpfMacroContext> = {}): SpfMacroContext {
  return {
    ip: parseSpfIp(ip) as SpfIp,
    sender: 'strong-bad@email.example.com',
    helo: 'mx.example.org',
    receiver: 'mx.receiver.example',
    now: () => new Date('2026-01-01T00:00:10Z'),
    validatedDomain: async () => 'mail.example.com',
    ...overrides,
  };
}

async function expand(text: string, ctx: SpfMacroContext, explanation = false): Promise<string> {
  const parsed = parseMacroString(text, { explanation });
  if (!parsed.ok) throw new Error(parsed.error);
  return expandMacros(parsed.tokens, 'email.example.com', ctx);
}

describe('SPF macros (RFC 7208 7)', () => {
  // The examples of RFC 7208 7.4.
  it('expands the RFC 7208 7.4 examples for an IPv4 client', async () => {
    const ctx = context('192.0.2.3');
    expect(await expand('%{s}', ctx)).toBe('strong-bad@email.example.com');
    expect(await expand('%{o}', ctx)).toBe('email.example.com');
    expect(await expand('%{d4}', ctx)).toBe('email.example.com');
    expect(await expand('%{d3}', ctx)).toBe('email.example.com');
    expect(await expand('%{d2}', ctx)).toBe('example.com');
    expect(await expand('%{d1}', ctx)).toBe('com');
    expect(await expand('%{dr}', ctx)).toBe('com.example.email');
    expect(await expand('%{d2r}', ctx)).toBe('example.email');
    expect(await expand('%{l}', ctx)).toBe('strong-bad');
    expect(await expand('%{l-}', ctx)).toBe('strong.bad');
    expect(await expand('%{lr}', ctx)).toBe('strong-bad');
    expect(await expand('%{lr-}', ctx)).toBe('bad.strong');
    expect(await expand('%{l1r-}', ctx)).toBe('strong');
    expect(await expand('%{ir}.%{v}._spf.%{d2}', ctx)).toBe('3.2.0.192.in-addr._spf.example.com');
    expect(await expand('%{lr-}.lp._spf.%{d2}', ctx)).toBe('bad.strong.lp._spf.example.com');
    expect(await expand('%{d2}.trusted-domains.example.net', ctx)).toBe('example.com.trusted-domains.example.net');
  });

  it('writes %{i} of an IPv6 client as 32 dotted nibbles and %{c} in RFC 5952 form', async () => {
    const ctx = context('2001:DB8::CB01');
    expect((await expand('%{ir}.%{v}._spf.%{d2}', ctx)).toLowerCase()).toBe(
      '1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com',
    );
    expect(await expand('%{c}', ctx, true)).toBe('2001:db8::cb01');
  });

  it('allows %{c}, %{r} and %{t} only in explanation text', async () => {
    const ctx = context('192.0.2.3');
    expect(await expand('%{c} via %{r} at %{t}', ctx, true)).toBe('192.0.2.3 via mx.receiver.example at 1767225610');
    expect(parseMacroString('%{r}.example.com').ok).toBe(false);
    expect(parseDomainSpec('%{t}.example.com').ok).toBe(false);
  });

  it('URL-escapes upper-case macros, keeping only the unreserved characters', async () => {
    const ctx = context('192.0.2.3', { sender: 'a b/c~d@example.com' });
    expect(await expand('%{L}', ctx)).toBe('a%20b%2Fc~d');
    expect(urlEscape('é')).toBe('%C3%A9');
  });

  it('expands %{p} through the validated-name lookup, and the escapes %%, %_ and %-', async () => {
    const ctx = context('192.0.2.3');
    expect(await expand('%{p}', ctx)).toBe('mail.example.com');
    expect(await expand('100%%%_sure%-', ctx)).toBe('100% sure%20');
  });

  it('refuses malformed macros', () => {
    for (const bad of ['%{', '%{x}', '%{d0}', '%(d)', 'foo%', '%{d2rr}']) expect(parseMacroString(bad).ok, bad).toBe(false);
  });

  it('requires a domain-spec to end in a top-level label or a macro', () => {
    expect(parseDomainSpec('_spf.example.com').ok).toBe(true);
    expect(parseDomainSpec('_spf.example.com.').ok).toBe(true);
    expect(parseDomainSpec('%{d}').ok).toBe(true);
    expect(parseDomainSpec('example.123').ok).toBe(false);
    expect(parseDomainSpec('museum').ok).toBe(false);
    expect(parseDomainSpec('example.-com').ok).toBe(false);
  });

  it('drops labels from the left of a name over 253 characters', () => {
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com.`;
    const name = targetName(long);
    expect(name.length).toBeLessThanOrEqual(253);
    expect(name).toBe(`${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`);
  });
});
