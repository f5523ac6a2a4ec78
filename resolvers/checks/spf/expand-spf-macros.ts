import type { MacroToken } from './spf-macro-string.js';
import type { SpfIp } from './spf-ip.js';
import { ipDotFormat } from './spf-ip.js';

/** What the macros of RFC 7208 7.2 expand to, for one check_host() call. */
export interface SpfMacroContext {
  readonly ip: SpfIp;
  /** <sender>: local-part@domain, "postmaster" substituted for an empty local-part (4.3). */
  readonly sender: string;
  readonly helo: string;
  /** %{r}: the receiving host; "unknown" when not known (7.2). */
  readonly receiver: string;
  readonly now: () => Date;
  /** %{p}: the validated domain name of the client (5.5), preferring <domain> or a subdomain. */
  readonly validatedDomain: (domain: string) => Promise<string>;
}

function splitSender(sender: string): { local: string; domain: string } {
  const at = sender.lastIndexOf('@');
  return { local: sender.slice(0, at), domain: sender.slice(at + 1) };
}

/** URL escaping for upper-case macros (7.3): everything but ALPHA, DIGIT, "-", ".", "_", "~". */
export function urlEscape(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

async function letterValue(letter: MacroToken & { kind: 'macro' }, domain: string, ctx: SpfMacroContext): Promise<string> {
  const { local, domain: senderDomain } = splitSender(ctx.sender);
  switch (letter.letter) {
    case 's':
      return ctx.sender;
    case 'l':
      return local;
    case 'o':
      return senderDomain;
    case 'd':
      return domain;
    case 'i':
      return ipDotFormat(ctx.ip);
    case 'p':
      return ctx.validatedDomain(domain);
    case 'v':
      return ctx.ip.family === 4 ? 'in-addr' : 'ip6';
    case 'h':
      return ctx.helo;
    case 'c':
      return ctx.ip.text;
    case 'r':
      return ctx.receiver;
    case 't':
      return String(Math.floor(ctx.now().getTime() / 1000));
  }
}

/**
 * Expands parsed macro tokens for the current <domain>. Transformers (7.3): split on the
 * delimiters, optionally reverse, keep the right-most N parts, join with dots; then URL-escape
 * when the letter was upper case.
 */
export async function expandMacros(tokens: readonly MacroToken[], domain: string, ctx: SpfMacroContext): Promise<string> {
  const parts = await Promise.all(
    tokens.map(async (token) => {
      if (token.kind === 'literal') return token.text;
      const value = await letterValue(token, domain, ctx);
      let pieces = value.split(new RegExp(`[${token.delimiters.replace(/[-\\\]^]/g, '\\$&')}]`));
      if (token.reverse) pieces = pieces.reverse();
      if (token.digits !== null && token.digits < pieces.length) pieces = pieces.slice(pieces.length - token.digits);
      const joined = pieces.join('.');
      return token.escape ? urlEscape(joined) : joined;
    }),
  );
  return parts.join('');
}

/**
 * An expanded domain-spec made ready for a query (7.3): a trailing dot is dropped, and a name over
 * 253 characters loses labels from the left until it fits.
 */
export function targetName(expanded: string): string {
  let name = expanded.endsWith('.') ? expanded.slice(0, -1) : expanded;
  while (name.length > 253 && name.includes('.')) name = name.slice(name.indexOf('.') + 1);
  return name;
}

/** A name DNS cannot carry (empty or over-long labels) is treated as non-existent (4.3, 4.8). */
export function isQueryableName(name: string): boolean {
  if (name === '' || name.length > 253) return false;
  // One pass over ASCII names (nearly all of them); anything else is measured in octets.
  let label = 0;
  for (let i = 0; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (code > 0x7f) return name.split('.').every((l) => l.length > 0 && Buffer.byteLength(l) <= 63);
    if (code === 46) {
      if (label === 0) return false;
      label = 0;
    } else if (++label > 63) {
      return false;
    }
  }
  return label > 0;
}
