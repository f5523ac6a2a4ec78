import type { CheckContext } from '../check-context.js';
import type { CheckResultBase, Finding } from '../check-result.js';
import type { DnsAnswer } from '../../../clients/dns/dns-types.js';
import { normalizeDomain } from '../normalize-domain.js';
import { hostHasSuffix } from '../nameservers/match-host-suffix.js';
import type { GoogleTenancyProbe } from './google-tenancy-probe.js';

export interface ProviderDomainInput {
  readonly domain: unknown;
}

export interface ProviderDomainContext extends CheckContext {
  readonly googleTenancy: GoogleTenancyProbe;
}

export type EvidenceKind = 'google_mx' | 'google_site_verification' | 'google_spf_include' | 'google_dkim' | 'sign_in_discovery';

export interface Evidence {
  readonly kind: EvidenceKind;
  /** true: present; false: absent; null: the lookup failed or the probe could not tell. */
  readonly found: boolean | null;
  readonly detail: string;
}

export interface ProviderDomainAnswer extends CheckResultBase {
  readonly domain: string;
  readonly domainUnicode: string | null;
  readonly provider: 'google_workspace';
  /** true: attached to a tenant; false: clear for a fresh tenant; null: cannot tell. */
  readonly attached: boolean | null;
  readonly confidence: 'high' | 'medium' | 'low';
  readonly evidence: readonly Evidence[];
  readonly note: string;
}

const NOTE =
  'DNS records show that a domain uses (or once used) Google for mail or verification; they do not prove ' +
  "which account holds it. Only Google's sign-in discovery speaks to tenancy, and it is asked when available.";

function failed(answer: DnsAnswer): boolean {
  return !answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata';
}

function failedDetail(answer: DnsAnswer): string {
  return answer.ok ? '' : `The ${answer.type} lookup of ${answer.name} failed (${answer.failure}); not a missing record.`;
}

/**
 * Whether a domain is already attached to a Google Workspace account or clear for a fresh tenant.
 * DNS evidence: Google MX, a google-site-verification TXT, an SPF include of _spf.google.com and a
 * google._domainkey key. Google's public sign-in discovery, through the injected probe, is the only
 * evidence of tenancy itself and decides when it answers.
 */
export async function checkProviderDomain(input: ProviderDomainInput, ctx: ProviderDomainContext): Promise<ProviderDomainAnswer> {
  const { domain, unicode } = normalizeDomain(input.domain);
  const [mx, txt, dkim, probe] = await Promise.all([
    ctx.dns.lookup(domain, 'MX'),
    ctx.dns.lookup(domain, 'TXT'),
    ctx.dns.lookup(`google._domainkey.${domain}`, 'TXT'),
    ctx.googleTenancy.probe(domain).catch(() => 'unknown' as const),
  ]);

  const googleMx = mx.ok ? mx.records.map((r) => r.data.exchange).filter((h) => hostHasSuffix(h, 'google.com') || hostHasSuffix(h, 'googlemail.com')) : [];
  const texts = txt.ok ? txt.records.map((r) => r.data.join('')) : [];
  const verification = texts.filter((t) => t.startsWith('google-site-verification='));
  const spf = texts.find((t) => /^v=spf1(\s|$)/i.test(t));
  const spfInclude = spf ? /(^|\s)[+?~-]?include:_spf\.google\.com\.?(\s|$)/i.test(spf) : false;
  const dkimKey = dkim.ok && dkim.records.some((r) => /(^|;)\s*p=[A-Za-z0-9+/]/.test(r.data.join('')));

  const evidence: Evidence[] = [
    failed(mx)
      ? { kind: 'google_mx', found: null, detail: failedDetail(mx) }
      : {
          kind: 'google_mx',
          found: googleMx.length > 0,
          detail: googleMx.length > 0 ? `MX points at Google: ${googleMx.join(', ')}.` : 'No MX record points at Google.',
        },
    failed(txt)
      ? { kind: 'google_site_verification', found: null, detail: failedDetail(txt) }
      : {
          kind: 'google_site_verification',
          found: verification.length > 0,
          detail:
            verification.length > 0
              ? `${verification.length} google-site-verification TXT record(s): the domain was verified with some Google service (Workspace, Search Console...).`
              : 'No google-site-verification TXT record.',
        },
    failed(txt)
      ? { kind: 'google_spf_include', found: null, detail: failedDetail(txt) }
      : {
          kind: 'google_spf_include',
          found: spfInclude,
          detail: spfInclude ? 'SPF includes _spf.google.com: the domain sends mail through Google.' : 'SPF does not include _spf.google.com.',
        },
    failed(dkim)
      ? { kind: 'google_dkim', found: null, detail: failedDetail(dkim) }
      : {
          kind: 'google_dkim',
          found: dkimKey,
          detail: dkimKey ? 'A DKIM key is published at google._domainkey, the selector Google Workspace uses.' : 'No DKIM key at google._domainkey.',
        },
    {
      kind: 'sign_in_discovery',
      found: probe === 'unknown' ? null : probe === 'managed',
      detail:
        probe === 'managed'
          ? "Google's sign-in discovery treats the domain as belonging to a Google account (tenant)."
          : probe === 'unmanaged'
            ? "Google's sign-in discovery says no Google Workspace account uses the domain."
            : "Google's sign-in discovery gave no usable answer.",
    },
  ];

  const dnsFailed = [mx, txt, dkim].some(failed);
  let attached: boolean | null;
  let confidence: 'high' | 'medium' | 'low';
  let summary: string;
  const strong = googleMx.length > 0;
  const weak = verification.length > 0 || spfInclude || dkimKey;
  if (probe === 'managed') {
    [attached, confidence] = [true, 'high'];
    summary = `${domain} is attached to a Google Workspace account, according to Google's sign-in discovery.`;
  } else if (probe === 'unmanaged') {
    [attached, confidence] = [false, strong || weak ? 'medium' : 'high'];
    summary = `${domain} is not attached to a Google Workspace account, according to Google's sign-in discovery${strong || weak ? '; leftover Google DNS records suggest an earlier tenant' : ''}.`;
  } else if (strong) {
    [attached, confidence] = [true, 'medium'];
    summary = `${domain} receives mail at Google, so it is very likely attached to a Google Workspace account (DNS shows use, not tenancy).`;
  } else if (weak) {
    [attached, confidence] = [null, 'low'];
    summary = `${domain} has Google records (verification, SPF or DKIM) but no Google MX: it may be attached to an account; DNS alone cannot tell.`;
  } else if (dnsFailed) {
    [attached, confidence] = [null, 'low'];
    summary = `A DNS lookup for ${domain} failed and Google's sign-in discovery gave no answer; attachment cannot be determined.`;
  } else {
    [attached, confidence] = [false, 'low'];
    summary = `${domain} shows no sign of Google Workspace in DNS, so it is probably clear for a fresh tenant (low confidence: DNS shows use, not tenancy).`;
  }

  const findings: Finding[] = [{ severity: 'info', code: 'dns_shows_use_not_tenancy', message: NOTE }];
  if (attached === true) {
    findings.push({
      severity: 'warning',
      code: 'already_attached',
      message: `${domain} appears attached to a Google Workspace account: a new tenant cannot verify it until the current one removes it.`,
    });
  } else if (attached === null) {
    findings.push({
      severity: 'warning',
      code: 'attachment_unknown',
      message: `Whether ${domain} is attached could not be determined; the domain owner can check in the Google Admin console.`,
    });
  }
  const status = dnsFailed && attached === null ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warn' : 'pass';
  return { status, summary, findings, domain, domainUnicode: unicode, provider: 'google_workspace', attached, confidence, evidence, note: NOTE };
}
