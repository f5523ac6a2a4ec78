import { getDomain } from 'tldts';
import type { ParsedReport } from './read-reports.js';
import type { DkimVerdict } from './verify-report-dkim.js';

/**
 * The reporting organisation's domain as the report gives it: the domain of its address (DMARC's
 * `report_metadata/email`, TLS-RPT's `contact-info`), else its name when that is a domain name
 * (Google writes `google.com`). Null when the report names none.
 */
export function reportingDomain(report: ParsedReport): string | null {
  const address = report.kind === 'dmarc' ? report.orgEmail : report.contact;
  const fromAddress = address?.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : null;
  const lowered = (fromAddress ?? report.orgName)
    .trim()
    .toLowerCase()
    .replace(/^mailto:/, '');
  // Everything before the first '>' or blank: cut by index, not by a regex that would rescan the tail.
  const end = lowered.search(/[>\s]/);
  const candidate = (end === -1 ? lowered : lowered.slice(0, end)).replace(/\.$/, '');
  return /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(candidate) ? candidate : null;
}

/** The organisational domain (the registrable one, Public Suffix List) of a name: DMARC's relaxed alignment (RFC 7489 section 3.2). */
function organisational(domain: string): string {
  return getDomain(domain, { allowPrivateDomains: true }) ?? domain;
}

/**
 * Whether a report that came by SMTP is the reporting organisation's own: a DKIM signature of the
 * message passes, and its signing domain aligns (relaxed: same organisational domain) with the
 * organisation's domain. Anyone can write `google.com` into a report; only Google can sign as it.
 */
export function isSignedByReporter(report: ParsedReport, dkim: readonly DkimVerdict[]): boolean {
  const reporter = reportingDomain(report);
  if (reporter === null) return false;
  const wanted = organisational(reporter);
  return dkim.some((v) => v.result === 'pass' && organisational(v.signingDomain) === wanted);
}
