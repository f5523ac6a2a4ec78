/** One sentence per tag of a DMARC record, saying what its value asks receivers to do. */
export interface DmarcTagExplained {
  readonly tag: string;
  readonly value: string;
  readonly meaning: string;
}

const POLICY_MEANING: Record<string, string> = {
  none: 'take no action on failing mail and only report it (monitoring)',
  quarantine: 'treat failing mail as suspicious, usually by delivering it to the spam folder',
  reject: 'refuse failing mail during delivery',
};

const REMOVED = ' RFC 9989 (DMARCbis) removed this tag; receivers following it ignore the tag, older receivers still apply it.';

const list = (value: string, separator = ':'): string[] =>
  value
    .split(separator)
    .map((v) => v.trim())
    .filter((v) => v !== '');

function explain(tag: string, value: string): string {
  const lower = value.toLowerCase();
  switch (tag) {
    case 'v':
      return 'Identifies the TXT record as a DMARC policy record; it must be the first tag.';
    case 'p':
      return POLICY_MEANING[lower]
        ? `Policy for mail from this domain that fails DMARC: ${POLICY_MEANING[lower]}.`
        : 'Policy for mail that fails DMARC; this value is not one of none, quarantine or reject.';
    case 'sp':
      return POLICY_MEANING[lower]
        ? `Policy for subdomains (overrides p= for them): ${POLICY_MEANING[lower]}.`
        : 'Policy for subdomains; this value is not one of none, quarantine or reject.';
    case 'np':
      return POLICY_MEANING[lower]
        ? `Policy for subdomains that do not exist in DNS (RFC 9989): ${POLICY_MEANING[lower]}.`
        : 'Policy for non-existent subdomains; this value is not one of none, quarantine or reject.';
    case 'adkim':
      return lower === 's'
        ? 'DKIM alignment is strict: the DKIM signing domain must equal the From domain exactly.'
        : lower === 'r'
          ? 'DKIM alignment is relaxed: the DKIM signing domain may be any domain of the same organisation as the From domain.'
          : 'DKIM alignment mode; valid values are r (relaxed) and s (strict).';
    case 'aspf':
      return lower === 's'
        ? 'SPF alignment is strict: the envelope sender (Return-Path) domain must equal the From domain exactly.'
        : lower === 'r'
          ? 'SPF alignment is relaxed: the envelope sender (Return-Path) domain may be any domain of the same organisation as the From domain.'
          : 'SPF alignment mode; valid values are r (relaxed) and s (strict).';
    case 'pct':
      return `Apply the policy to ${value}% of failing mail; the rest is treated one step more leniently.${REMOVED}`;
    case 'rua':
      return `Send daily aggregate reports (XML summaries of who sends as this domain) to ${list(value, ',').join(', ')}.`;
    case 'ruf':
      return `Send failure (forensic) reports about individual failing messages to ${list(value, ',').join(', ')}; few receivers send them.`;
    case 'ri':
      return `Ask for aggregate reports every ${value} seconds${/^[0-9]+$/.test(value) ? ` (${Math.round((Number(value) / 3600) * 10) / 10} hours)` : ''}; most receivers send them daily regardless.${REMOVED}`;
    case 'fo': {
      const options: Record<string, string> = {
        '0': 'when SPF and DKIM both fail to align (the default)',
        '1': 'when either SPF or DKIM fails to align',
        d: 'when a DKIM signature fails to verify',
        s: 'when SPF fails',
      };
      const parts = list(lower).map((o) => options[o] ?? `"${o}" (not a valid option)`);
      return `Ask for failure reports ${parts.join(', and ')}.`;
    }
    case 'rf':
      return `Format of failure reports: ${lower === 'afrf' ? 'afrf, the Authentication Failure Reporting Format (the only one defined)' : `${value} (only afrf is defined)`}.${REMOVED}`;
    case 't':
      return lower === 'y'
        ? 'Test mode (RFC 9989): receivers apply one step less than the policy (reject becomes quarantine, quarantine becomes none).'
        : 'Test mode is off (RFC 9989): receivers apply the policy as written.';
    case 'psd':
      return lower === 'y'
        ? 'Declares this domain a public suffix domain (RFC 9989), such as a TLD operator; ordinary domains should not set it.'
        : lower === 'n'
          ? 'Declares this domain an organisational domain, not a public suffix (RFC 9989): the DNS tree walk stops here.'
          : 'Public suffix status unknown (RFC 9989 default).';
    default:
      return 'Not a DMARC tag; receivers ignore it.';
  }
}

export function explainDmarcTags(tags: readonly { readonly tag: string; readonly value: string }[]): DmarcTagExplained[] {
  return tags.map(({ tag, value }) => ({ tag, value, meaning: explain(tag, value) }));
}
