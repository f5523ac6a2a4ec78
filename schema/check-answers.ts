import { answerEnum, answerInterface, answerObject, answerScalar, answerUnion, type AnswerFields } from './answer-type-dsl.js';
import type { CheckResultBase, Finding } from '../resolvers/checks/check-result.js';
import type { CheckDnssec } from '../resolvers/checks/dns/dnssec-tally.js';
import type { ExtendedDnsError } from '../clients/dns/dns-types.js';
import type { checkSpf } from '../resolvers/checks/spf/check-spf.js';
import type { SpfExpansionStop, SpfTermNode } from '../resolvers/checks/spf/spf-tree-types.js';
import type { checkDkim } from '../resolvers/checks/dkim/check-dkim.js';
import type { checkDmarc } from '../resolvers/checks/dmarc/check-dmarc.js';
import type { checkBimi } from '../resolvers/checks/bimi/check-bimi.js';
import type { checkMtaSts } from '../resolvers/checks/mta-sts/check-mta-sts.js';
import type { checkDns, DnsRecordAnswer } from '../resolvers/checks/dns-records/check-dns.js';
import type { checkCname } from '../resolvers/checks/cname/check-cname.js';
import type { checkBlacklist } from '../resolvers/checks/blacklist/check-blacklist.js';
import type { checkUribl } from '../resolvers/checks/uribl/check-uribl.js';
import type { checkNameservers } from '../resolvers/checks/nameservers/check-nameservers.js';
import type { checkDomainExpiry } from '../resolvers/checks/domain-expiry/check-domain-expiry.js';
import type { checkProviderDomain } from '../resolvers/checks/provider-domain/check-provider-domain.js';
import type { verifyEmail } from '../resolvers/checks/verify-email/verify-email.js';
import type { segmentEsp } from '../resolvers/checks/segment-esp/segment-esp.js';
import type { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import type { GradePart } from '../resolvers/checks/deliverability/grade-weights.js';
import { CHECK_DNS_TYPES } from '../resolvers/checks/dns-records/check-dns.js';
import { GRADE_PARTS, GRADES } from '../resolvers/checks/deliverability/grade-weights.js';

/*
 * The public checks' answers as GraphQL types, mirroring the resolvers' return types
 * (resolvers/checks/**) field by field; docs/checks.md explains each field. Wire names are the
 * checks' snake_case keys (REST and MCP answer them as they are); GraphQL names are their camelCase.
 * Each object is declared over the resolver's own type for that part of the answer, so a field the
 * resolver does not return fails the type check.
 */

/** What each check's resolver returns. */
type AnswerOf<Check extends (...args: never[]) => Promise<object>> = Awaited<ReturnType<Check>>;
type Spf = AnswerOf<typeof checkSpf>;
type Dkim = AnswerOf<typeof checkDkim>;
type Dmarc = AnswerOf<typeof checkDmarc>;
type Bimi = AnswerOf<typeof checkBimi>;
type MtaSts = AnswerOf<typeof checkMtaSts>;
type Dns = AnswerOf<typeof checkDns>;
type Cname = AnswerOf<typeof checkCname>;
type Blacklist = AnswerOf<typeof checkBlacklist>;
type Uribl = AnswerOf<typeof checkUribl>;
type Nameservers = AnswerOf<typeof checkNameservers>;
type NameserverResult = Nameservers['results'][number];
type DelegationHealth = NonNullable<NameserverResult['delegation']>;
type DomainExpiry = AnswerOf<typeof checkDomainExpiry>;
type ProviderDomain = AnswerOf<typeof checkProviderDomain>;
type VerifyEmail = AnswerOf<typeof verifyEmail>;
type EmailResult = VerifyEmail['results'][number];
type Esp = AnswerOf<typeof segmentEsp>;
type Deliverability = AnswerOf<typeof checkDeliverability>;

// Shared parts of every answer.
answerEnum(
  'CheckStatus',
  ['pass', 'warn', 'fail', 'error'],
  "pass, warn (warnings), fail (errors); error when lookups failed or the request's bounds cut the check short.",
);
answerEnum('Severity', ['error', 'warning', 'info'], 'How much a finding matters.');
answerObject<Finding>('Finding', "One observation, with a stable code (docs/checks.md lists each check's codes) and a sentence saying what to change.", {
  severity: 'Severity',
  code: ['String', 'Stable, snake_case, documented in docs/checks.md.'],
  message: ['String', 'A sentence a person can act on.'],
});
answerEnum(
  'DnssecStatus',
  ['secure', 'insecure', 'bogus', 'indeterminate'],
  'DNSSEC validation as the resolver reported it: secure (AD set), insecure (AD clear: unsigned, or a resolver that does not validate), ' +
    'bogus (SERVFAIL with an Extended DNS Error saying validation failed), indeterminate (the reply did not tell, or no reply). docs/dnssec.md.',
);
answerObject<ExtendedDnsError>('ExtendedDnsError', "An Extended DNS Error (RFC 8914) from the resolver's reply, as the first reply gave it.", {
  code: ['Int', 'The INFO-CODE: 7 Signature Expired, 9 DNSKEY Missing, 6 DNSSEC Bogus, ...'],
  meaning: ['String', 'The code in plain words.'],
  text: ['String?', "The resolver's EXTRA-TEXT, printable and at most 200 characters; null when it sent none."],
});
answerObject<CheckDnssec>(
  'CheckDnssec',
  'The DNSSEC status of the DNS answers a check used: the weakest of them (bogus, then indeterminate, then insecure, then secure), with the reason (docs/dnssec.md).',
  {
    status: 'DnssecStatus',
    reason: ['String', "A sentence: the resolver's reason, or what the answers showed."],
    answers: ['Int', 'Distinct questions (name and type) the check asked the resolver.'],
    validated: ['Int', 'Of those, the answers the resolver validated (AD set).'],
    name: ['String?', 'The name whose answer decided the status; null when secure.'],
    type: ['String?', 'Its record type; null when secure.'],
    extended_dns_error: ['ExtendedDnsError?', "That answer's Extended DNS Error; null when it carried none."],
  },
);
const checkAnswer = answerInterface<CheckResultBase>(
  'CheckAnswer',
  'What every check answers: select these with `... on CheckAnswer { status summary findings { code } }` on any check field.',
  {
    status: 'CheckStatus',
    summary: ['String', 'One sentence.'],
    findings: '[Finding]',
    dnssec: ['CheckDnssec?', 'The DNSSEC status of the DNS answers the check used (docs/dnssec.md); null when it asked no DNS question.'],
  },
);
/** A check's own answer: the common fields come from CheckAnswer. */
function check<T extends CheckResultBase>(name: string, description: string, fields: AnswerFields<T>): void {
  answerObject<T>(name, description, fields, [checkAnswer]);
}
answerEnum('DmarcPolicy', ['none', 'quarantine', 'reject'], 'A DMARC policy (p=, sp=, np=).');
answerEnum('DnsType', CHECK_DNS_TYPES, 'The record types check-dns reads (REST takes them in any case).');
answerEnum('SpfResult', ['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'], 'An RFC 7208 check_host() result.');

/** The answer when the request's deadline passed before the check returned anything: only the common fields (dnssec of the lookups made so far). */
check<CheckResultBase>(
  'UnfinishedCheck',
  "A check the request's deadline (CHECKS_DEADLINE_MS) cut off before it answered: status error, the reason as summary and first finding (code deadline_passed).",
  {},
);

// check-spf
answerScalar(
  'SpfRecordTree',
  'An included or redirected SPF record with its own terms, nested as deep as the record goes: ' +
    '{domain, outcome, record, lookups, void_lookups, errors, mechanisms: [term]} where each term has the fields of SpfTerm. ' +
    'A scalar because a GraphQL selection cannot follow a tree of unknown depth within the depth limit of 10.',
);
answerObject<SpfTermNode>('SpfTerm', 'One term of an SPF record, with the record it includes or redirects to.', {
  term: 'String',
  qualifier: ['String?', 'The qualifier as written: +, -, ~ or ?; null when the term has none.'],
  mechanism: 'String',
  value: 'String?',
  lookups: 'Int',
  evaluated: 'Boolean',
  void_lookup: 'Boolean',
  past_limit: ['Boolean', 'True after the point where receivers stop with permerror (see expansion_stopped).'],
  errors: '[String]',
  children: ['SpfRecordTree?', 'The included or redirected record, or null.'],
});
answerEnum('SpfStopReason', ['dns_lookups', 'void_lookups', 'mx_names'], 'Which RFC 7208 limit stopped the expansion.');
answerObject<SpfExpansionStop>('SpfExpansionStop', 'Where the audit stopped because receivers stop there with permerror.', {
  reason: 'SpfStopReason',
  term: 'String',
  domain: 'String',
  depth: 'Int',
  path: '[String]',
});
answerObject<Spf['divergence'][number]>('SpfReceiverDivergence', 'Where widely used receivers reach a different outcome than RFC 7208.', {
  rule: 'String',
  receivers: '[String]',
  detail: 'String',
  void_lookup_count: 'Int',
  valid: 'Boolean',
  result: ['SpfResult~', 'With ip: the result those receivers give that address.'],
});
check<Spf>('SpfAnswer', 'check-spf: the record, lookup counts, the include tree; with ip, the check_host() result.', {
  domain: 'String',
  domain_unicode: ['String~', 'Present when the domain is internationalised.'],
  record: 'String?',
  valid: 'Boolean',
  lookup_count: ['Int', 'DNS-querying terms across the whole tree (more than 10 breaks SPF).'],
  void_lookup_count: 'Int',
  mechanisms: '[SpfTerm]',
  expansion_stopped: 'SpfExpansionStop?',
  divergence: '[SpfReceiverDivergence]',
  ip: ['String~', 'Only with ip.'],
  sender: ['String~', 'Only with ip.'],
  helo: ['String~', 'Only with ip.'],
  result: ['SpfResult~', 'Only with ip.'],
  matched_mechanism: ['String~ip', 'Only with ip: the deciding term, or null.'],
  explanation: ['String~ip', 'Only with ip: the exp= text on a fail, or null.'],
});

// check-dkim
answerEnum('DkimKeyType', ['rsa', 'ed25519'], 'A DKIM key algorithm.');
answerObject<Dkim['keys'][number]>('DkimKey', 'A DKIM key found under a selector.', {
  selector: 'String',
  record: 'String',
  valid: 'Boolean',
  key_type: 'DkimKeyType?',
  key_bits: 'Int?',
  testing: 'Boolean',
  hash_algorithms: '[String]',
  service_types: '[String]',
  findings: '[Finding]',
});
check<Dkim>('DkimAnswer', 'check-dkim: the key under a selector, or a scan of 26 common selectors.', {
  domain: 'String',
  domain_unicode: 'String~',
  selector: 'String?',
  selectors_checked: '[String]',
  keys: '[DkimKey]',
  domainkey_exists: 'Boolean?',
  wildcard: 'Boolean?',
});

// check-dmarc
answerEnum('DmarcAlignment', ['r', 's'], 'adkim/aspf: relaxed or strict.');
answerEnum('DmarcTesting', ['y', 'n'], 't=: testing mode.');
answerEnum('DmarcPsd', ['y', 'n', 'u'], 'psd=: public suffix domain flag.');
answerEnum('DmarcReportTag', ['rua', 'ruf'], 'A report tag.');
answerEnum('DmarcReportProblem', ['not_mailto', 'not_an_address', 'lookup_failed'], 'Why a report destination could not be judged.');
answerObject<Dmarc['tags'][number]>('DmarcTagExplained', 'A tag as written, explained.', { tag: 'String', value: 'String', meaning: 'String' });
answerObject<Dmarc['report_destinations'][number]>(
  'DmarcReportDestination',
  'A report address and whether the receiving domain authorises it (RFC 7489 7.1).',
  {
    tag: 'DmarcReportTag',
    uri: 'String',
    destination: 'String?',
    external: 'Boolean',
    authorization_record: 'String?',
    authorized: 'Boolean?',
    problem: 'DmarcReportProblem?',
  },
);
check<Dmarc>('DmarcAnswer', 'check-dmarc: the record parsed and explained.', {
  domain: 'String',
  domain_unicode: 'String~',
  record: 'String?',
  valid: 'Boolean',
  source: 'String?',
  organizational_domain: 'String?',
  inherited: 'Boolean',
  policy: 'DmarcPolicy?',
  subdomain_policy: 'DmarcPolicy?',
  effective_policy: 'DmarcPolicy?',
  pct: 'Int?',
  adkim: 'DmarcAlignment?',
  aspf: 'DmarcAlignment?',
  rua: '[String]',
  ruf: '[String]',
  fo: '[String]?',
  ri: ['Float?', 'Report interval in seconds, up to 4294967295 (a whole number; Float because GraphQL Int stops at 2^31).'],
  np: 'DmarcPolicy?',
  t: 'DmarcTesting?',
  psd: 'DmarcPsd?',
  tags: '[DmarcTagExplained]',
  report_destinations: '[DmarcReportDestination]',
});

// check-bimi
answerEnum('MarkType', ['VMC', 'CMC'], 'Verified or common mark certificate.');
answerObject<Bimi['dmarc_detail']>('BimiDmarcDetail', 'The DMARC records BIMI relies on and what must change for enforcement.', {
  domain_record: 'String?',
  organizational_domain: 'String',
  organizational_record: 'String?',
  policy: 'DmarcPolicy?',
  subdomain_policy: 'DmarcPolicy?',
  pct: 'Int?',
  changes: '[String]',
});
answerObject<NonNullable<Bimi['logo']>>('BimiLogo', 'The SVG logo as fetched and validated.', {
  fetched: 'Boolean',
  size_bytes: 'Int?',
  svg_tiny_ps_valid: 'Boolean?',
  problems: '[String]',
});
answerObject<NonNullable<Bimi['certificate']>>('MarkCertificate', 'The mark certificate as fetched and checked.', {
  fetched: 'Boolean',
  subject: 'String?',
  issuer: 'String?',
  valid_from: 'String?',
  valid_to: 'String?',
  expired: 'Boolean?',
  covers_domain: 'Boolean?',
  names: '[String]',
  mark_type: 'MarkType?',
  logo_embedded: 'Boolean',
  logo_matches: 'Boolean?',
  chain_trusted: 'Boolean?',
  trust_anchor: 'String?',
  problems: '[String]',
});
check<Bimi>('BimiAnswer', 'check-bimi: the record, logo, certificate and DMARC enforcement.', {
  domain: 'String',
  domain_unicode: 'String~',
  selector: 'String',
  record_domain: 'String?',
  record: 'String?',
  valid: 'Boolean',
  declined: 'Boolean',
  logo_url: 'String?',
  authority_url: 'String?',
  dmarc_enforced: 'Boolean?',
  dmarc_detail: 'BimiDmarcDetail',
  logo: 'BimiLogo?',
  certificate: 'MarkCertificate?',
});

// check-mta-sts
answerEnum('MtaStsMode', ['enforce', 'testing', 'none'], 'The policy mode.');
answerObject<NonNullable<MtaSts['policy']>>('MtaStsPolicy', 'The policy file.', { version: 'String', mode: 'MtaStsMode', mx: '[String]', max_age: 'Int' });
answerObject<MtaSts['mx_hosts'][number]>('MtaStsMxHost', 'A real MX host and whether the policy covers it.', { host: 'String', matches_policy: 'Boolean?' });
answerObject<NonNullable<MtaSts['tls_rpt']>>('TlsRptSummary', 'The _smtp._tls record.', { record: 'String', rua: '[String]', valid: 'Boolean' });
check<MtaSts>('MtaStsAnswer', 'check-mta-sts: record, policy and TLS-RPT.', {
  domain: 'String',
  domain_unicode: 'String~',
  record: 'String?',
  record_id: 'String?',
  policy_url: 'String',
  policy: 'MtaStsPolicy?',
  policy_error: 'String?',
  mx_hosts: '[MtaStsMxHost]',
  tls_rpt: 'TlsRptSummary?',
});

// check-dns
answerEnum('DnsOutcome', ['records', 'nodata', 'nxdomain', 'failed'], 'records found; nodata: the name exists without this type; nxdomain; failed lookup.');
answerObject<Extract<DnsRecordAnswer, { readonly preference: number }>>('MxRecordAnswer', 'An MX record.', {
  preference: 'Int',
  exchange: 'String',
  ttl: 'Int',
});
answerObject<Extract<DnsRecordAnswer, { readonly strings: readonly string[] }>>('TxtRecordAnswer', 'A TXT record: the strings joined, and as published.', {
  value: 'String',
  strings: '[String]',
  ttl: 'Int',
});
answerObject<Extract<DnsRecordAnswer, { readonly address: string }>>('AddressRecordAnswer', 'An A or AAAA record.', { address: 'String', ttl: 'Int' });
answerObject<Extract<DnsRecordAnswer, { readonly target: string }>>('NameRecordAnswer', 'A CNAME or NS record.', { target: 'String', ttl: 'Int' });
answerObject<Extract<DnsRecordAnswer, { readonly mname: string }>>('SoaRecordAnswer', 'An SOA record.', {
  mname: 'String',
  rname: 'String',
  serial: ['Float', 'A whole number up to 4294967295 (Float because GraphQL Int stops at 2^31).'],
  refresh: 'Int',
  retry: 'Int',
  expire: 'Int',
  minimum: 'Int',
  ttl: 'Int',
});
answerObject<Extract<DnsRecordAnswer, { readonly flags: number }>>('CaaRecordAnswer', 'A CAA record.', {
  flags: 'Int',
  tag: 'String',
  value: 'String',
  ttl: 'Int',
});
answerUnion(
  'DnsRecordAnswer',
  'One record, shaped by its type.',
  ['MxRecordAnswer', 'TxtRecordAnswer', 'AddressRecordAnswer', 'NameRecordAnswer', 'SoaRecordAnswer', 'CaaRecordAnswer'],
  (record) =>
    'preference' in record
      ? 'MxRecordAnswer'
      : 'strings' in record
        ? 'TxtRecordAnswer'
        : 'address' in record
          ? 'AddressRecordAnswer'
          : 'mname' in record
            ? 'SoaRecordAnswer'
            : 'flags' in record
              ? 'CaaRecordAnswer'
              : 'NameRecordAnswer',
);
check<Dns>('DnsAnswer', 'check-dns: records of one type.', {
  domain: 'String',
  domain_unicode: 'String~',
  type: 'DnsType',
  outcome: 'DnsOutcome',
  records: '[DnsRecordAnswer]',
});

// check-cname
answerObject<Cname['chain'][number]>('CnameHop', 'One alias in the chain.', { name: 'String', target: 'String', ttl: 'Int' });
answerObject<Cname['final']>('CnameEnd', 'Where the chain ends and its addresses.', { name: 'String', addresses: '[String]' });
check<Cname>('CnameAnswer', 'check-cname: the CNAME chain of a host.', {
  host: 'String',
  host_unicode: 'String~',
  expected: 'String?',
  chain: '[CnameHop]',
  final: 'CnameEnd',
  matches_expected: 'Boolean?',
});

// check-blacklist and check-uribl
answerEnum('BlacklistInputKind', ['ipv4', 'domain'], 'What was checked.');
answerEnum('DnsblKind', ['ip', 'domain'], 'What a list lists.');
answerObject<Blacklist['lists'][number]['codes'][number]>('DnsblCode', 'A return code of a list and its meaning.', { code: 'String', meaning: 'String' });
answerObject<Blacklist['lists'][number]>('DnsblListResult', "One list's verdict.", {
  list: 'String',
  list_id: 'String',
  zone: 'String',
  target: 'String',
  kind: 'DnsblKind',
  listed: 'Boolean?',
  codes: '[DnsblCode]',
  removal_url: 'String',
  reason: 'String?',
  alive: ['Boolean?', 'Whether the list answered its test entry; null when not probed.'],
});
answerObject<Blacklist['checked']>('BlacklistChecked', 'What was looked up.', {
  description: 'String',
  domain: 'String?',
  mail_hosts: '[String]',
  addresses: '[String]',
  domain_lists: 'Int',
  ip_lists: 'Int',
});
check<Blacklist>('BlacklistAnswer', 'check-blacklist: listings of a domain (and its mail servers) or an IPv4 address.', {
  input: 'String',
  input_kind: 'BlacklistInputKind',
  domain: 'String?',
  domain_unicode: 'String?',
  checked: 'BlacklistChecked',
  lists: '[DnsblListResult]',
  listed_count: 'Int',
  checked_count: 'Int',
  unanswered_count: 'Int',
});
answerObject<Uribl['results'][number]['lists'][number]>('UriblListResult', "One URI list's verdict.", {
  list: 'String',
  list_id: 'String',
  zone: 'String',
  listed: 'Boolean?',
  codes: '[DnsblCode]',
  removal_url: 'String',
  reason: 'String?',
  alive: 'Boolean?',
});
answerObject<Uribl['results'][number]>('UriblDomainResult', "One domain's URI list verdicts.", {
  domain: 'String',
  domain_unicode: 'String?',
  queried: 'String?',
  listed: 'Boolean?',
  lists: '[UriblListResult]',
  reason: 'String?',
});
check<Uribl>('UriblAnswer', 'check-uribl: listing per domain.', { results: '[UriblDomainResult]', listed_count: 'Int' });

// check-nameservers
answerEnum('NameserverOutcome', ['ok', 'no_nameservers', 'not_found', 'invalid', 'lookup_failed'], 'How the NS lookup went.');
answerEnum('NameserverStatus', ['authoritative', 'lame', 'unreachable', 'no_address'], 'How a name server answered for the zone.');
answerObject<NameserverResult['providers'][number]>('NameserverProvider', 'A DNS host and the name servers it runs for the domain.', {
  id: 'String',
  name: 'String',
  nameservers: '[String]',
});
answerObject<DelegationHealth['servers'][number]>('NameserverHealth', 'One name server asked directly.', {
  nameserver: 'String',
  addresses: '[String]',
  status: 'NameserverStatus',
  serial: 'Float?',
  reason: 'String?',
});
answerObject<DelegationHealth>('DelegationHealth', "Parent and child NS sets and each server's answer (single-domain calls).", {
  parent_zone: 'String',
  parent_nameservers: '[String]?',
  parent_reason: 'String?',
  child_nameservers: '[String]',
  only_at_parent: '[String]',
  only_at_child: '[String]',
  servers: '[NameserverHealth]',
  serials_agree: 'Boolean?',
});
answerObject<NameserverResult>('NameserverResult', "One domain's name servers.", {
  domain: 'String',
  domain_unicode: 'String?',
  zone: 'String?',
  outcome: 'NameserverOutcome',
  nameservers: '[String]',
  providers: '[NameserverProvider]',
  provider: 'String?',
  reason: 'String?',
  dnssec: 'DnssecStatus?',
  delegation: ['DelegationHealth~', 'Only when one domain was asked, and its NS lookup succeeded or failed with the parent reachable (a lame zone).'],
});
answerScalar(
  'ProviderCounts',
  'An object mapping a DNS provider\'s display name (or "Mixed", "unknown") to its number of domains. ' +
    'A scalar because its keys are provider names with spaces, which are not GraphQL names.',
);
check<Nameservers>('NameserversAnswer', 'check-nameservers: NS records and DNS provider per domain.', {
  results: '[NameserverResult]',
  provider_counts: 'ProviderCounts',
});

// check-domain-expiry
answerEnum('RegistrationSource', ['rdap', 'whois'], 'Where the registration data came from.');
check<DomainExpiry>('DomainExpiryAnswer', 'check-domain-expiry: registration and expiry over RDAP or WHOIS.', {
  domain: 'String',
  domain_unicode: 'String?',
  registered_domain: 'String',
  registered: 'Boolean?',
  registrar: 'String?',
  created: 'String?',
  expires: 'String?',
  days_remaining: 'Int?',
  age_days: 'Int?',
  source: 'RegistrationSource?',
  server: 'String?',
});

// check-provider-domain
answerEnum('EvidenceKind', ['google_mx', 'google_site_verification', 'google_spf_include', 'google_dkim', 'sign_in_discovery'], 'A kind of tenancy evidence.');
answerEnum('TenancyProvider', ['google_workspace'], 'The mail provider whose tenancy is assessed.');
answerEnum('Confidence', ['high', 'medium', 'low'], 'How sure the verdict is.');
answerObject<ProviderDomain['evidence'][number]>('TenancyEvidence', 'One piece of evidence.', { kind: 'EvidenceKind', found: 'Boolean?', detail: 'String' });
check<ProviderDomain>('ProviderDomainAnswer', 'check-provider-domain: Google Workspace tenancy evidence.', {
  domain: 'String',
  domain_unicode: 'String?',
  provider: 'TenancyProvider',
  attached: 'Boolean?',
  confidence: 'Confidence',
  evidence: '[TenancyEvidence]',
  note: 'String',
});

// verify-email
answerEnum(
  'EmailReason',
  [
    'deliverable',
    'invalid_syntax',
    'null_mx',
    'no_mail_route',
    'domain_not_found',
    'mail_hosts_do_not_resolve',
    'dns_lookup_failed',
    'mail_hosts_not_looked_up',
  ],
  'Why an address is or is not deliverable.',
);
answerObject<EmailResult['mx'][number]>('MxPreference', 'An MX record: exchange and preference.', { preference: 'Int', exchange: 'String' });
answerObject<EmailResult>('EmailResult', 'One address.', {
  email: 'String',
  valid: ['Boolean?', 'true: DNS says mail can be delivered; false: it cannot; null: a lookup failed.'],
  syntax_valid: 'Boolean',
  reason: 'EmailReason',
  detail: 'String',
  domain: 'String?',
  domain_unicode: 'String?',
  mx: '[MxPreference]',
  implicit_mx: 'Boolean',
  null_mx: 'Boolean',
  disposable: 'Boolean',
  role: 'Boolean',
  mx_issues: ['[Finding]', 'Broken MX rules of the domain, each saying what to change.'],
});
answerObject<VerifyEmail['counts']>('EmailCounts', 'Addresses per verdict.', { valid: 'Int', invalid: 'Int', unknown: 'Int', disposable: 'Int', role: 'Int' });
check<VerifyEmail>('VerifyEmailAnswer', 'verify-email: per address, syntax, live MX, disposable and role.', {
  results: '[EmailResult]',
  counts: 'EmailCounts',
  catch_all_note: 'String',
});

// segment-esp
const SEGMENTS = ['google', 'microsoft', 'security_gateway', 'other', 'unresolved'] as const;
answerEnum('EspSegment', SEGMENTS, 'A mail provider segment.');
answerEnum('GatewayProvider', ['google', 'microsoft'], 'The provider found behind a security gateway.');
answerObject<Esp['results'][number]>('EspDomainResult', "One domain's segment.", {
  domain: 'String',
  domain_unicode: 'String?',
  segment: 'EspSegment',
  provider: 'String?',
  gateway: 'String?',
  provider_behind_gateway: 'GatewayProvider?',
  mx_hosts: '[String]',
  reason: 'String?',
});
answerObject<Esp['counts']>('EspCounts', 'Domains per segment.', Object.fromEntries(SEGMENTS.map((s) => [s, 'Int'])));
answerObject<Esp['segments']>('EspSegments', 'The domains of each segment.', Object.fromEntries(SEGMENTS.map((s) => [s, '[String]'])));
check<Esp>('SegmentEspAnswer', 'segment-esp: domains split by mail provider.', { counts: 'EspCounts', segments: 'EspSegments', results: '[EspDomainResult]' });

// check-deliverability
answerEnum('Grade', GRADES, 'A letter grade.');
answerEnum('GradePart', GRADE_PARTS, 'A part of the grade.');
answerEnum('CapPart', [...GRADE_PARTS, 'spf_and_dkim'], 'What a grade cap comes from.');
answerObject<Deliverability['breakdown'][GradePart]>('BreakdownEntry', "One part's contribution to the grade.", {
  score: 'Float?',
  weight: 'Float',
  effective_weight: 'Float?',
  points: 'Float?',
  status: 'CheckStatus',
  detail: 'String',
  cap: 'Grade?',
});
answerObject<Deliverability['breakdown']>('GradeBreakdown', "Each part's contribution.", Object.fromEntries(GRADE_PARTS.map((p) => [p, 'BreakdownEntry'])));
answerObject<Deliverability['caps'][number]>('AppliedCap', 'A cap on the letter and why.', {
  part: 'CapPart',
  grade: 'Grade',
  code: 'String',
  reason: 'String',
});
answerObject<Deliverability['fixes'][number]>('DeliverabilityFix', 'A fix and the points it gains.', {
  part: 'GradePart',
  code: 'String',
  points: 'Float',
  fix: 'String',
  caps_grade_at: 'Grade?',
});
answerObject<Deliverability['checks'][GradePart]>('DeliverabilitySubCheck', 'The status and summary of one check the grade ran.', {
  check: ['String', "The check's name: check-spf, check-dkim, check-dmarc, check-dns, check-blacklist or check-domain-expiry."],
  status: 'CheckStatus',
  summary: 'String',
});
answerObject<Deliverability['checks']>(
  'GradeChecks',
  'The check run for each part.',
  Object.fromEntries(GRADE_PARTS.map((p) => [p, 'DeliverabilitySubCheck'])),
);
check<Deliverability>('DeliverabilityAnswer', 'check-deliverability: A-F grade, breakdown and fixes.', {
  domain: 'String',
  domain_unicode: 'String~',
  grade: 'Grade?',
  score: 'Float?',
  unchecked_weight: 'Float',
  breakdown: 'GradeBreakdown',
  caps: '[AppliedCap]',
  not_scored: '[GradePart]',
  fixes: '[DeliverabilityFix]',
  checks: 'GradeChecks',
});
