import type { CheckContext } from '../check-context.js';
import { statusFromFindings, type CheckResultBase, type Finding } from '../check-result.js';
import type { DnsAnswer } from '../../../clients/dns/dns-types.js';
import { normalizeDomain } from '../normalize-domain.js';
import { organizationalDomain } from '../organizational-domain.js';
import { looksLikeDmarc, parseDmarcRecord, type DmarcParseResult, type DmarcPolicy, type DmarcRecord } from './dmarc-record.js';
import { checkReportDestinations, type DmarcReportDestination } from './dmarc-report-authorization.js';
import { explainDmarcTags, type DmarcTagExplained } from './dmarc-tag-meaning.js';

export { dmarcEnforcement } from './dmarc-enforcement.js';
export type { DmarcPolicy } from './dmarc-record.js';

export interface CheckDmarcInput {
  readonly domain: string;
}

export interface CheckDmarcAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode?: string;
  /** The DMARC TXT text found (the first, when several), or null. */
  readonly record: string | null;
  readonly valid: boolean;
  /** The DNS name the record came from, e.g. "_dmarc.example.com", or null when none was found. */
  readonly source: string | null;
  /** The organisational domain of `domain` (RFC 7489 section 3.2), or null for a public suffix. */
  readonly organizationalDomain: string | null;
  /** True when `domain` has no record and the organisational domain's record applies to it. */
  readonly inherited: boolean;
  /** p= (none when the RFC 7489 section 6.6.3 fallback applied). The fields below are null without a valid record. */
  readonly policy: DmarcPolicy | null;
  /** sp=, or p= when sp is absent: the policy for subdomains. */
  readonly subdomainPolicy: DmarcPolicy | null;
  /** The policy that applies to mail from `domain`: sp= when inherited from the organisational domain, else p=. */
  readonly effectivePolicy: DmarcPolicy | null;
  readonly pct: number | null;
  readonly adkim: 'r' | 's' | null;
  readonly aspf: 'r' | 's' | null;
  /** Report URIs without their "!size" suffix. */
  readonly rua: readonly string[];
  readonly ruf: readonly string[];
  readonly fo: readonly string[] | null;
  readonly ri: number | null;
  /** np= (RFC 9989), or the subdomain policy when absent. */
  readonly np: DmarcPolicy | null;
  readonly t: 'y' | 'n' | null;
  readonly psd: 'y' | 'n' | 'u' | null;
  /** Every tag as written, each explained in a sentence. */
  readonly tags: readonly DmarcTagExplained[];
  readonly reportDestinations: readonly DmarcReportDestination[];
}

const STRENGTH: Record<DmarcPolicy, number> = { none: 0, quarantine: 1, reject: 2 };
const failed = (answer: DnsAnswer): boolean => !answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata';
/** A TXT record's character-strings are joined without separator, as receivers do for records over 255 octets. */
const dmarcTexts = (answer: DnsAnswer<'TXT'>): string[] => (answer.ok ? answer.records.map((r) => r.data.join('')) : []).filter(looksLikeDmarc);

const empty = {
  record: null,
  valid: false,
  policy: null,
  subdomainPolicy: null,
  effectivePolicy: null,
  pct: null,
  adkim: null,
  aspf: null,
  rua: [],
  ruf: [],
  fo: null,
  ri: null,
  np: null,
  t: null,
  psd: null,
  tags: [],
  reportDestinations: [],
} as const;

/** Where the DMARC record of `domain` came from: its own _dmarc name, else the organisational domain's. */
interface DmarcSource {
  readonly source: string;
  readonly answer: DnsAnswer<'TXT'>;
  readonly inherited: boolean;
}

type DmarcEcho = Pick<CheckDmarcAnswer, 'domain' | 'domainUnicode' | 'organizationalDomain'>;

export async function checkDmarc(input: CheckDmarcInput, ctx: CheckContext): Promise<CheckDmarcAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const org = organizationalDomain(domain);
  const echo = { domain, ...(unicode ? { domainUnicode: unicode } : {}), organizationalDomain: org };

  const { source, answer, inherited } = await findDmarcRecord(domain, org, ctx);
  if (failed(answer)) return lookupFailedAnswer(echo, source, answer);
  const texts = dmarcTexts(answer);
  const policyDomain = source.slice('_dmarc.'.length);
  if (texts.length === 0) return missingAnswer(echo, inherited);
  const inheritedFinding: Finding[] = inherited
    ? [
        {
          severity: 'info',
          code: 'dmarc_inherited',
          message: `${domain} has no DMARC record of its own; the record of its organisational domain ${org} applies, with its subdomain policy.`,
        },
      ]
    : [];
  const record = texts[0]!;
  if (texts.length > 1) return multipleAnswer(echo, { source, inherited }, texts, inheritedFinding);

  const parsed = parseDmarcRecord(record);
  if (!parsed.ok) return invalidAnswer(echo, { source, inherited }, record, parsed, inheritedFinding);

  const r: DmarcRecord = parsed.record;
  const subdomainPolicy: DmarcPolicy = r.sp || r.p;
  const effective = inherited ? subdomainPolicy : r.p;
  const uris = [...r.rua.map((uri) => ({ tag: 'rua' as const, uri })), ...r.ruf.map((uri) => ({ tag: 'ruf' as const, uri }))];
  const destinations = await checkReportDestinations(policyDomain, uris, ctx.dns);

  const findings: Finding[] = [
    ...inheritedFinding,
    ...policyFindings(parsed, subdomainPolicy, policyDomain),
    ...destinationFindings(destinations, policyDomain),
  ];

  const status = statusFromFindings(findings);
  const who = inherited ? `${domain} has no DMARC record of its own; ${org}'s record applies` : `${domain} publishes DMARC`;
  const reports = r.rua.length > 0 ? `aggregate reports to ${r.rua.length} address${r.rua.length > 1 ? 'es' : ''}` : 'no aggregate reports';
  const summary =
    parsed.fallback.length > 0
      ? `The DMARC record at ${source} has an invalid or missing policy, so receivers treat it as p=none.`
      : `${who} with policy ${effective}${r.pct < 100 ? ` on ${r.pct}% of mail` : ''} (subdomains: ${subdomainPolicy}) and ${reports}.`;

  return {
    ...echo,
    status,
    summary,
    findings,
    record,
    valid: parsed.fallback.length === 0,
    source,
    inherited,
    policy: r.p,
    subdomainPolicy,
    effectivePolicy: effective,
    pct: r.pct,
    adkim: r.adkim,
    aspf: r.aspf,
    rua: r.rua.map((u) => u.address),
    ruf: r.ruf.map((u) => u.address),
    fo: r.fo,
    ri: r.ri,
    np: r.np || subdomainPolicy,
    t: r.t,
    psd: r.psd,
    tags: explainDmarcTags(r.tags),
    reportDestinations: destinations,
  };
}

// RFC 7489 section 6.6.3: the domain's own _dmarc record, else the organisational domain's.
async function findDmarcRecord(domain: string, org: string | null, ctx: CheckContext): Promise<DmarcSource> {
  let source = `_dmarc.${domain}`;
  let answer = await ctx.dns.lookup(source, 'TXT');
  let inherited = false;
  if (!failed(answer) && dmarcTexts(answer).length === 0 && org !== null && org !== domain) {
    source = `_dmarc.${org}`;
    answer = await ctx.dns.lookup(source, 'TXT');
    inherited = true;
  }
  return { source, answer, inherited };
}

function lookupFailedAnswer(echo: DmarcEcho, source: string, answer: DnsAnswer<'TXT'>): CheckDmarcAnswer {
  const { domain } = echo;
  return {
    ...echo,
    ...empty,
    source: null,
    inherited: false,
    status: 'error',
    summary: `The DMARC lookup for ${source} failed, so we cannot tell whether ${domain} has a DMARC policy; try again.`,
    findings: [{ severity: 'error', code: 'dmarc_lookup_failed', message: `Looking up TXT ${source} failed: ${answer.ok ? '' : answer.detail}.` }],
  };
}

function missingAnswer(echo: DmarcEcho, inherited: boolean): CheckDmarcAnswer {
  const { domain, organizationalDomain: org } = echo;
  const where = inherited ? ` nor at its organisational domain (_dmarc.${org})` : '';
  return {
    ...echo,
    ...empty,
    source: null,
    inherited: false,
    status: 'fail',
    summary: `${domain} has no DMARC record: nothing at _dmarc.${domain}${where}.`,
    findings: [
      {
        severity: 'error',
        code: 'dmarc_missing',
        message: `No DMARC record at _dmarc.${domain}${where}. Publish a TXT record there such as "v=DMARC1; p=none; rua=mailto:dmarc@${org ?? domain}", then move to p=quarantine or p=reject once reports show your mail passes.`,
      },
    ],
  };
}

function multipleAnswer(
  echo: DmarcEcho,
  found: Pick<DmarcSource, 'source' | 'inherited'>,
  texts: readonly string[],
  inheritedFinding: readonly Finding[],
): CheckDmarcAnswer {
  const { source, inherited } = found;
  const record = texts[0]!;
  return {
    ...echo,
    ...empty,
    record,
    source,
    inherited,
    status: 'fail',
    summary: `${source} has ${texts.length} DMARC records, so receivers apply none of them.`,
    findings: [
      ...inheritedFinding,
      {
        severity: 'error',
        code: 'dmarc_multiple_records',
        message: `${source} has ${texts.length} TXT records starting with v=DMARC1; RFC 7489 section 6.6.3 has receivers ignore them all. Merge them into one record.`,
      },
    ],
  };
}

function invalidAnswer(
  echo: DmarcEcho,
  found: Pick<DmarcSource, 'source' | 'inherited'>,
  record: string,
  parsed: Extract<DmarcParseResult, { ok: false }>,
  inheritedFinding: readonly Finding[],
): CheckDmarcAnswer {
  const { source, inherited } = found;
  const tagsWritten = record
    .split(';')
    .map((piece) => piece.trim())
    .filter((piece) => piece.includes('='))
    .map((piece) => ({ tag: piece.slice(0, piece.indexOf('=')).trim().toLowerCase(), value: piece.slice(piece.indexOf('=') + 1).trim() }));
  return {
    ...echo,
    ...empty,
    record,
    source,
    inherited,
    tags: explainDmarcTags(tagsWritten),
    status: 'fail',
    summary: `The DMARC record at ${source} is invalid, so receivers ignore it: ${parsed.errors[0]!.message}`,
    findings: [
      ...inheritedFinding,
      ...parsed.errors.map(
        (e): Finding => ({
          severity: 'error',
          code: 'dmarc_syntax_error',
          message: `${e.tag ? `Tag ${e.tag}: ` : ''}${e.message}`,
        }),
      ),
    ],
  };
}

/** The policy's own findings, in this order: fallback syntax errors, p=none, sp, np, pct, t, rua, unknown tags. */
function policyFindings(parsed: Extract<DmarcParseResult, { ok: true }>, subdomainPolicy: DmarcPolicy, policyDomain: string): Finding[] {
  const r: DmarcRecord = parsed.record;
  const findings: Finding[] = [];
  for (const issue of parsed.fallback) {
    findings.push({
      severity: 'error',
      code: 'dmarc_syntax_error',
      message: `Tag ${issue.tag}: ${issue.message} Because rua= is valid, receivers treat the whole record as p=none (RFC 7489 section 6.6.3).`,
    });
  }
  if (r.p === 'none' && parsed.fallback.length === 0) {
    findings.push({
      severity: 'warning',
      code: 'dmarc_policy_none',
      message:
        'p=none only monitors: mail that fails DMARC is still delivered. Once aggregate reports show your legitimate mail passes, move to p=quarantine, then p=reject.',
    });
  }
  if (r.sp && STRENGTH[r.sp] < STRENGTH[r.p]) {
    findings.push({
      severity: 'warning',
      code: 'dmarc_subdomain_policy_weaker',
      message: `sp=${r.sp} is weaker than p=${r.p}, so spoofed mail from made-up subdomains gets through more easily; remove sp= or set sp=${r.p}.`,
    });
  }
  if (r.np && STRENGTH[r.np] < STRENGTH[subdomainPolicy]) {
    findings.push({
      severity: 'warning',
      code: 'dmarc_nonexistent_policy_weaker',
      message: `np=${r.np} is weaker than the subdomain policy (${subdomainPolicy}) for subdomains that do not even exist; remove np= or set np=${subdomainPolicy}.`,
    });
  }
  if (r.pct < 100) {
    findings.push({
      severity: 'warning',
      code: 'dmarc_pct_partial',
      message: `pct=${r.pct} applies the policy to only ${r.pct}% of failing mail (and RFC 9989 drops pct=); remove pct= or set pct=100.`,
    });
  }
  if (r.t === 'y') {
    findings.push({
      severity: 'warning',
      code: 'dmarc_test_mode',
      message: 't=y (test mode) makes receivers apply one step less than the policy; remove t=y when you are ready to enforce.',
    });
  }
  if (r.rua.length === 0) {
    findings.push({
      severity: 'warning',
      code: 'dmarc_no_rua',
      message: `No rua= tag: you get no aggregate reports, so you cannot see who sends mail as ${policyDomain}. Add rua=mailto:dmarc-reports@${policyDomain} (or your DMARC reporting service's address).`,
    });
  }
  for (const note of parsed.notes) {
    findings.push({ severity: 'info', code: note.tag === 'rf' ? 'dmarc_unknown_report_format' : 'dmarc_unknown_tag', message: note.message });
  }
  return findings;
}

/** What each rua=/ruf= destination lacks: a mailto: URI, an address, or the receiver's authorisation. */
function destinationFindings(destinations: readonly DmarcReportDestination[], policyDomain: string): Finding[] {
  const findings: Finding[] = [];
  for (const d of destinations) {
    if (d.problem === 'not_mailto') {
      findings.push({
        severity: 'warning',
        code: 'dmarc_report_uri_not_mailto',
        message: `${d.tag}= ${d.uri} is not a mailto: address; receivers only send reports by email. Use mailto:.`,
      });
    } else if (d.problem === 'not_an_address') {
      findings.push({
        severity: 'warning',
        code: 'dmarc_report_uri_invalid',
        message: `${d.tag}= ${d.uri} does not hold an email address; write it as mailto:reports@example.com.`,
      });
    } else if (d.problem === 'lookup_failed') {
      findings.push({
        severity: 'warning',
        code: 'dmarc_report_authorization_unknown',
        message: `Could not look up ${d.authorizationRecord} (DNS failure), so we cannot tell whether ${d.destination} accepts reports for ${policyDomain}.`,
      });
    } else if (d.authorized === false) {
      findings.push({
        severity: 'warning',
        code: 'dmarc_report_unauthorized',
        message: `${d.destination} has not authorised reports for ${policyDomain}: receivers drop ${d.tag} reports to ${d.uri} unless ${d.authorizationRecord} has a TXT record "v=DMARC1" (RFC 7489 section 7.1). Ask the report receiver to publish it.`,
      });
    }
  }

  return findings;
}
