import { randomBytes } from 'node:crypto';
import { DomainError } from '../../domain-error.js';
import type { CheckContext } from '../check-context.js';
import { statusFromFindings, type CheckResultBase, type CheckStatus, type Finding } from '../check-result.js';
import type { DnsAnswer } from '../../../clients/dns/dns-types.js';
import { normalizeDomain } from '../normalize-domain.js';
import { COMMON_DKIM_SELECTORS } from './common-selectors.js';
import { assessDkimKey, type DkimKey } from './dkim-key-assessment.js';

export type { DkimKey } from './dkim-key-assessment.js';

export interface CheckDkimInput {
  readonly domain: string;
  /** Omitted: the 26 common selectors are scanned. */
  readonly selector?: string | null;
}

export interface CheckDkimAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode?: string;
  /** The selector asked for, or null when the common selectors were scanned. */
  readonly selector: string | null;
  readonly selectorsChecked: readonly string[];
  readonly keys: readonly DkimKey[];
  /**
   * Scan only: whether _domainkey.<domain> exists. True with no key found means keys may be published
   * under selectors we did not guess; false (NXDOMAIN) means there is no DKIM key at all; null when
   * not probed (a selector was given), the lookup failed, or a wildcard answers every name there.
   */
  readonly domainkeyExists: boolean | null;
  /**
   * Scan only: whether a random selector answers TXT too, i.e. a wildcard (such as *.<domain>) answers
   * any name under _domainkey, so a hit at a guessed selector may be the wildcard's echo; null when
   * not probed (a selector was given) or the probe failed.
   */
  readonly wildcard: boolean | null;
}

const SELECTOR = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A selector is one or more DNS labels (RFC 6376 section 3.1); "s1._domainkey.example.com" is cut to "s1". */
function normalizeSelector(raw: string): string {
  const selector = raw
    .trim()
    .toLowerCase()
    .replace(/\._domainkey(?:\..*)?$/, '');
  if (!SELECTOR.test(selector) || selector.length > 200) {
    throw new DomainError(
      'invalid_selector',
      `"selector" is not a valid DKIM selector ("${raw.slice(0, 80)}"): pass the s= value of a DKIM-Signature, such as google or s1, or leave it out to scan ${COMMON_DKIM_SELECTORS.length} common selectors.`,
    );
  }
  return selector;
}

/** TXT character-strings of one record are concatenated without separator (RFC 6376 section 3.6.2.2). */
const joined = (answer: DnsAnswer<'TXT'>): string[] => (answer.ok ? answer.records.map((r) => r.data.join('')) : []);

/** When scanning, only text that claims to be a key counts: a wildcard SPF TXT at *.domain is not a key. */
const looksLikeKey = (text: string): boolean => /^\s*v\s*=\s*DKIM1\b/i.test(text) || /(?:^|;)\s*[pk]\s*=/.test(text);

/** Key findings that stay errors in a selector scan even when another selector has a valid key: one rule for both paths. */
const ERRORS_IN_EVERY_PATH: ReadonlySet<string> = new Set(['dkim_key_too_weak']);

const failed = (answer: DnsAnswer): boolean => !answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata';

/** The TXT texts of an answer as one comparable value, to tell a wildcard's echo from a record of its own. */
const textsOf = (answer: DnsAnswer<'TXT'>): string => JSON.stringify(joined(answer).sort());

/** A selector no one publishes: 16 random letters and digits, so only a wildcard can answer it. */
function randomSelector(): string {
  return randomBytes(16)
    .toString('base64')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .padEnd(16, '0')
    .slice(0, 16);
}

function keysAt(selector: string, answer: DnsAnswer<'TXT'>, scanning: boolean): { keys: DkimKey[]; findings: Finding[] } {
  const texts = joined(answer).filter((text) => !scanning || looksLikeKey(text));
  const first = texts[0];
  if (first === undefined) return { keys: [], findings: [] };
  const findings: Finding[] = [];
  if (texts.length > 1) {
    // RFC 6376 section 3.6.2.2: "TXT RRs MUST be unique for a particular selector name"; with
    // several, the verifier's choice is undefined.
    findings.push({
      severity: 'error',
      code: 'dkim_multiple_records',
      message: `${selector}._domainkey has ${texts.length} TXT records; receivers pick one at random. Keep only the current key.`,
    });
  }
  const key = assessDkimKey(selector, first);
  return { keys: [findings.length > 0 ? { ...key, valid: false, findings: [...findings, ...key.findings] } : key], findings };
}

export async function checkDkim(input: CheckDkimInput, ctx: CheckContext): Promise<CheckDkimAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const echo = { domain, ...(unicode ? { domainUnicode: unicode } : {}) };
  const given = input.selector != null && input.selector.trim() !== '' ? normalizeSelector(input.selector) : null;
  return given !== null ? checkSelector(echo, given, ctx) : scanSelectors(echo, ctx);
}

type DkimEcho = Pick<CheckDkimAnswer, 'domain' | 'domainUnicode'>;

/** The key at the selector the caller named. */
async function checkSelector(echo: DkimEcho, given: string, ctx: CheckContext): Promise<CheckDkimAnswer> {
  const { domain } = echo;
  const name = `${given}._domainkey.${domain}`;
  const answer = await ctx.dns.lookup(name, 'TXT');
  const base = { ...echo, selector: given, selectorsChecked: [given], domainkeyExists: null, wildcard: null };
  if (failed(answer)) {
    return {
      ...base,
      status: 'error',
      keys: [],
      summary: `The DKIM lookup for ${name} failed (${answer.ok ? '' : answer.failure}), so we cannot tell whether the key exists; try again.`,
      findings: [{ severity: 'error', code: 'dkim_lookup_failed', message: `Looking up TXT ${name} failed: ${answer.ok ? '' : answer.detail}.` }],
    };
  }
  const { keys } = keysAt(given, answer, false);
  const key = keys[0];
  if (key === undefined) {
    const why = !answer.ok && answer.failure === 'nxdomain' ? 'the name does not exist' : 'the name has no TXT record';
    return {
      ...base,
      status: 'fail',
      keys: [],
      summary: `No DKIM key is published for selector "${given}" at ${name} (${why}).`,
      findings: [
        {
          severity: 'error',
          code: 'dkim_selector_not_found',
          message: `No DKIM key at ${name}: ${why}. Check the s= tag of the DKIM-Signature in a message you sent, and publish the TXT record your mail provider gives for that selector.`,
        },
      ],
    };
  }
  const status = statusFromFindings(key.findings);
  return {
    ...base,
    status,
    keys,
    findings: key.findings,
    summary: key.valid
      ? `The DKIM key for selector "${given}" is a valid ${key.keyType} key of ${key.keyBits} bits${status === 'warn' ? ', with warnings' : ''}.`
      : `The DKIM key for selector "${given}" cannot be used: ${key.findings.find((f) => f.severity === 'error')?.message ?? ''}`,
  };
}

async function scanSelectors(echo: DkimEcho, ctx: CheckContext): Promise<CheckDkimAnswer> {
  const { domain } = echo;
  // Scan: every guessed selector, the _domainkey parent and a random selector at once, so the wall
  // time is one round trip. The random selector tells a wildcard (which answers it) from keys.
  const selectors = [...COMMON_DKIM_SELECTORS];
  const [parent, probe, ...answers] = await Promise.all([
    ctx.dns.lookup(`_domainkey.${domain}`, 'TXT'),
    ctx.dns.lookup(`${randomSelector()}._domainkey.${domain}`, 'TXT'),
    ...selectors.map((s) => ctx.dns.lookup(`${s}._domainkey.${domain}`, 'TXT')),
  ]);
  const wildcard = failed(probe) ? null : probe.ok;
  const wildcardTexts = probe.ok ? textsOf(probe) : null;
  const keys: DkimKey[] = [];
  const failedSelectors: string[] = [];
  const echoes: string[] = [];
  answers.forEach((answer, i) => {
    const selector = selectors[i]!;
    if (failed(answer)) failedSelectors.push(selector);
    // The same text as the random selector got is the wildcard answering, not a key of this selector.
    else if (wildcardTexts !== null && answer.ok && textsOf(answer) === wildcardTexts) echoes.push(selector);
    else keys.push(...keysAt(selector, answer, true).keys);
  });
  // Under a wildcard, the parent answers whatever exists below it: its existence tells nothing.
  const domainkeyExists = failed(parent) || wildcard === true ? null : parent.ok || parent.failure === 'nodata';
  const base = { ...echo, selector: null, selectorsChecked: selectors, keys, domainkeyExists, wildcard };
  const wildcardFinding: Finding | null =
    wildcard === true
      ? {
          severity: 'warning',
          code: 'dkim_wildcard',
          message: `Any name under _domainkey.${domain} answers TXT (a wildcard record such as *.${domain}), so a selector's answer may be the wildcard's text rather than a key${echoes.length > 0 ? `: ${echoes.join(', ')} gave only the wildcard's text and are not reported as keys` : ''}.${looksLikeKey(joined(probe as DnsAnswer<'TXT'>)[0] ?? '') ? ' The wildcard itself holds DKIM key text, which receivers would use for every selector;' : ''} Check the selector your provider signs with using selector=, and narrow the wildcard or publish each key at its own selector.`,
        }
      : null;
  // RFC 8020: NXDOMAIN means nothing exists below the name either; a resolver that follows it (unbound
  // and others cache it so) then treats every selector as missing, and DKIM fails at those receivers.
  const brokenNxdomain = !parent.ok && parent.failure === 'nxdomain' && keys.length > 0;
  const rfc8020Finding: Finding | null = brokenNxdomain
    ? {
        severity: 'warning',
        code: 'dkim_parent_nxdomain',
        message: `_domainkey.${domain} answers NXDOMAIN although keys exist below it (${keys.map((k) => k.selector).join(', ')}): this breaks RFC 8020, and resolvers that trust it (such as unbound) then treat every selector as missing, so DKIM fails at their receivers. Ask your DNS provider to answer NOERROR with no data for _domainkey.${domain}, or move the zone to a provider that does.`,
      }
    : null;

  const validKeys = keys.filter((k) => k.valid);
  const findings: Finding[] = [...(wildcardFinding ? [wildcardFinding] : []), ...(rfc8020Finding ? [rfc8020Finding] : [])];
  for (const key of keys) {
    for (const finding of key.findings) {
      // Once one selector works, a broken key at another is hygiene rather than a failure, and a
      // revoked one is what rotating keys should leave behind. A key under 1024 bits is not: mail
      // signed with it fails at receivers, so it is an error in a scan as when its selector is asked.
      if (validKeys.length > 0 && !key.valid && finding.severity === 'error' && !ERRORS_IN_EVERY_PATH.has(finding.code)) {
        findings.push({ ...finding, severity: finding.code === 'dkim_key_revoked' ? 'info' : 'warning' });
      } else {
        findings.push(finding);
      }
    }
  }

  if (keys.length === 0) return noKeyAnswer(base, { domain, selectors, wildcardFinding, failedSelectors, domainkeyExists, findings });

  if (failedSelectors.length > 0) {
    findings.push({
      severity: 'warning',
      code: 'dkim_lookup_failed',
      message: `DNS lookups failed for selectors ${failedSelectors.join(', ')}; keys there, if any, are not reported.`,
    });
  }
  const status: CheckStatus = validKeys.length === 0 ? 'fail' : statusFromFindings(findings);
  const list = keys.map((k) => k.selector).join(', ');
  const summary =
    validKeys.length === keys.length
      ? `Found ${keys.length} valid DKIM key${keys.length > 1 ? 's' : ''} for ${domain} (${list})${status === 'warn' ? ', with warnings' : ''}.`
      : validKeys.length === 0
        ? `Found ${keys.length} DKIM key${keys.length > 1 ? 's' : ''} for ${domain} (${list}), but none can be used.`
        : `Found ${keys.length} DKIM keys for ${domain} (${list}); ${validKeys.length} valid, ${keys.length - validKeys.length} with problems.`;
  return { ...base, status, summary, findings };
}

/** A scan that found no key: a wildcard, failed lookups, an existing _domainkey with unguessed selectors, or no DKIM at all. */
function noKeyAnswer(
  base: Omit<CheckDkimAnswer, 'status' | 'summary' | 'findings'>,
  scan: {
    readonly domain: string;
    readonly selectors: readonly string[];
    readonly wildcardFinding: Finding | null;
    readonly failedSelectors: readonly string[];
    readonly domainkeyExists: boolean | null;
    readonly findings: Finding[];
  },
): CheckDkimAnswer {
  const { domain, selectors, wildcardFinding, failedSelectors, domainkeyExists, findings } = scan;
  if (wildcardFinding) {
    return {
      ...base,
      status: 'warn',
      findings,
      summary: `No DKIM key of its own under the ${selectors.length} common selectors of ${domain}: a wildcard answers every name under _domainkey.${domain}, so we cannot tell whether keys exist under other selectors.`,
    };
  }
  if (failedSelectors.length > 0 || domainkeyExists === null) {
    const names = failedSelectors.length > 0 ? failedSelectors.join(', ') : `_domainkey.${domain}`;
    return {
      ...base,
      status: 'error',
      summary: `Some DKIM lookups for ${domain} failed (${names}), so we cannot tell whether keys exist; try again.`,
      findings: [
        {
          severity: 'error',
          code: 'dkim_lookup_failed',
          message: `DNS lookups failed for ${names} under _domainkey.${domain}; no key was found in the others.`,
        },
      ],
    };
  }
  if (domainkeyExists) {
    return {
      ...base,
      status: 'warn',
      summary: `No DKIM key under the ${selectors.length} common selectors, but _domainkey.${domain} exists, so keys may be published under selectors we did not guess.`,
      findings: [
        {
          severity: 'warning',
          code: 'dkim_selector_not_guessed',
          message: `None of the ${selectors.length} common selectors has a key, but _domainkey.${domain} exists. Find the selector in the s= tag of the DKIM-Signature of a message you sent and check it with selector=.`,
        },
      ],
    };
  }
  return {
    ...base,
    status: 'fail',
    summary: `${domain} publishes no DKIM keys: _domainkey.${domain} does not exist (NXDOMAIN).`,
    findings: [
      {
        severity: 'error',
        code: 'dkim_not_found',
        message: `There is no DKIM subtree at _domainkey.${domain}, so mail from ${domain} cannot carry a verifiable DKIM signature. Turn on DKIM signing at your mail provider and publish the TXT record it gives you.`,
      },
    ],
  };
}
