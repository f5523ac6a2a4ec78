import type { OperationRow, ParamSpec } from './operation-table.js';

const q = (name: string, required: boolean, description: string): ParamSpec => ({ name, in: 'query', type: 'string', required, description });
const domain = q('domain', true, 'A domain name such as example.com (not an email address or URL); internationalised names are accepted.');

/** The public checks of SPEC 4.1: name in the path, the GraphQL field it runs, and its query parameters. */
const checks: readonly { name: string; field: string; summary: string; params: readonly ParamSpec[] }[] = [
  { name: 'check-deliverability', field: 'checkDeliverability', summary: 'A-F cold-email readiness grade with a weighted breakdown (SPF, DKIM, DMARC, MX, blacklists, domain age) and the fixes that raise it most.', params: [domain] },
  { name: 'check-spf', field: 'checkSpf', summary: 'The SPF record, validated, with RFC 7208 lookup counts and every include expanded; with ip, the check_host() result for that client.', params: [
    domain, q('ip', false, 'Client IPv4 or IPv6 address to evaluate the record for.'), q('sender', false, 'MAIL FROM address for the evaluation (default postmaster@domain).'), q('helo', false, 'HELO/EHLO name for the evaluation.')] },
  { name: 'check-dkim', field: 'checkDkim', summary: 'The DKIM key under a selector, or a concurrent scan of 26 common selectors; key type, size and flags.', params: [domain, q('selector', false, 'Selector to look up; omitted, 26 common selectors are scanned.')] },
  { name: 'check-dmarc', field: 'checkDmarc', summary: 'The DMARC record parsed and explained tag by tag, with the organisational-domain fallback and report-address authorisation.', params: [domain] },
  { name: 'check-bimi', field: 'checkBimi', summary: 'The BIMI record, the SVG Tiny PS logo, the mark certificate and the DMARC enforcement mailbox providers require.', params: [domain, q('selector', false, 'BIMI selector (default "default").')] },
  { name: 'check-mta-sts', field: 'checkMtaSts', summary: 'The _mta-sts record and the policy file (mode, MX patterns, max_age) checked against the real MX hosts, and TLS-RPT.', params: [domain] },
  { name: 'check-dns', field: 'checkDns', summary: 'Records of one type for a name, typed per record type, with TTLs.', params: [domain, q('type', false, 'One of MX (default), TXT, A, AAAA, CNAME, NS, SOA, CAA.')] },
  { name: 'check-blacklist', field: 'checkBlacklist', summary: 'Listing of a domain (and its mail servers\' addresses) or an IPv4 address on 20+ maintained blacklists.', params: [q('input', true, 'A domain name or an IPv4 address.')] },
  { name: 'check-uribl', field: 'checkUribl', summary: 'Listing of each domain on URI blacklists (a listed link domain sends the whole message to spam).', params: [q('domains', true, 'Comma-separated domains, at most 100.')] },
  { name: 'check-nameservers', field: 'checkNameservers', summary: 'NS records and the DNS provider of each domain.', params: [q('domains', true, 'Comma-separated domains, at most 1,000.')] },
  { name: 'check-domain-expiry', field: 'checkDomainExpiry', summary: 'Registrar, creation and expiry dates and days remaining, over RDAP with a WHOIS fallback.', params: [domain] },
  { name: 'check-provider-domain', field: 'checkProviderDomain', summary: 'Whether the domain is already attached to a Google Workspace account or clear for a fresh tenant, with the evidence.', params: [domain] },
  { name: 'check-cname', field: 'checkCname', summary: 'The full CNAME chain from a host, with the mistakes that break a tracking domain; optionally asserts where it ends.', params: [
    q('host', true, 'Host name such as track.example.com.'), q('expected', false, 'The name the chain should reach.')] },
  { name: 'verify-email', field: 'verifyEmail', summary: 'Per address: syntax, live MX, disposable provider and role prefix. No SMTP connection is opened.', params: [q('emails', true, 'Comma-separated addresses, at most 5,000.')] },
  { name: 'segment-esp', field: 'segmentEsp', summary: 'Domains split by mail provider from their MX records: Google, Microsoft, a security gateway, other, unresolved.', params: [q('domains', true, 'Comma-separated domains, at most 1,000.')] },
];

export const publicCheckRows: readonly OperationRow[] = checks.map((c) => ({
  name: c.name.replace(/-/g, '_'),
  listener: 'public',
  method: 'GET',
  path: `/.platform/functions/${c.name}`,
  document: c.name,
  unwrap: c.field,
  scope: null,
  rateLimit: 'public',
  summary: c.summary,
  params: c.params,
  mcpTool: c.name.replace(/-/g, '_'),
}));
