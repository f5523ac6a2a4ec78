import type { CheckAnswerName, CheckArgumentEnumName } from './check-answers/index.js';
import type { FullCheckContext } from '../resolvers/checks/full-check-context.js';
import { checkSpf } from '../resolvers/checks/spf/check-spf.js';
import { checkDkim } from '../resolvers/checks/dkim/check-dkim.js';
import { checkDmarc } from '../resolvers/checks/dmarc/check-dmarc.js';
import { checkBimi } from '../resolvers/checks/bimi/check-bimi.js';
import { checkMtaSts } from '../resolvers/checks/mta-sts/check-mta-sts.js';
import { checkDns, CHECK_DNS_TYPES } from '../resolvers/checks/dns-records/check-dns.js';
import { checkCname } from '../resolvers/checks/cname/check-cname.js';
import { checkBlacklist } from '../resolvers/checks/blacklist/check-blacklist.js';
import { checkUribl } from '../resolvers/checks/uribl/check-uribl.js';
import { checkNameservers } from '../resolvers/checks/nameservers/check-nameservers.js';
import { checkDomainExpiry } from '../resolvers/checks/domain-expiry/check-domain-expiry.js';
import { checkProviderDomain } from '../resolvers/checks/provider-domain/check-provider-domain.js';
import { verifyEmail } from '../resolvers/checks/verify-email/verify-email.js';
import { segmentEsp } from '../resolvers/checks/segment-esp/segment-esp.js';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import { NAMESERVERS_LIMIT, SEGMENT_ESP_LIMIT, URIBL_LIMIT, VERIFY_EMAIL_LIMIT } from '../resolvers/checks/bulk-input.js';

/**
 * One argument of a check, as every door takes it. GraphQL: `name` with `type`; REST: a query
 * parameter (lists comma-separated, enums in any case); MCP/tools.json: a property of the input schema.
 */
export interface CheckArg {
  readonly name: string;
  /** `domain`: a required string; `text`: an optional one; `list`: a required list of strings; `enum`: one of `values`. */
  readonly kind: 'domain' | 'text' | 'list' | 'enum';
  readonly required: boolean;
  readonly description: string;
  /** list: the most distinct items one call takes. */
  readonly maxItems?: number;
  /** enum: the GraphQL enum and its values. */
  readonly enumType?: CheckArgumentEnumName;
  readonly values?: readonly string[];
}

/**
 * A public check, declared once: its name on every door, its arguments, the function that runs it
 * and its answer type (schema/check-answers/). The Pothos field (schema/checks.ts), the operation
 * document (operations/documents/<name>.graphql, printed from its row by `npm run codegen`) and the operation-table row
 * (operations/public-check-rows.ts) are derived from it, so a new parameter is one line here.
 */
export interface CheckDeclaration {
  /** The path name: /.platform/functions/<name>; the MCP tool and operationId are its snake_case. */
  readonly name: string;
  /** The GraphQL query field. */
  readonly field: string;
  readonly summary: string;
  readonly args: readonly CheckArg[];
  /** The answer's object type (schema/check-answers/). */
  readonly answer: CheckAnswerName;
  readonly run: (input: Record<string, unknown>, ctx: FullCheckContext) => Promise<unknown>;
}

const domain: CheckArg = {
  name: 'domain',
  kind: 'domain',
  required: true,
  description: 'A domain name such as example.com (not an email address or URL); internationalised names are accepted.',
};
const text = (name: string, description: string): CheckArg => ({ name, kind: 'text', required: false, description });
const list = (name: string, maxItems: number, description: string): CheckArg => ({
  name,
  kind: 'list',
  required: true,
  maxItems,
  description: `${description}, at most ${maxItems.toLocaleString('en-US')} distinct.`,
});

// Each run casts its input: GraphQL has already typed the arguments as declared above.
type Run = CheckDeclaration['run'];
const as =
  <I>(fn: (input: I, ctx: FullCheckContext) => Promise<unknown>): Run =>
  (input, ctx) =>
    fn(input as I, ctx);

export const checkDeclarations: readonly CheckDeclaration[] = [
  {
    name: 'check-deliverability',
    field: 'checkDeliverability',
    answer: 'DeliverabilityAnswer',
    run: as(checkDeliverability),
    summary: 'A-F cold-email readiness grade with a weighted breakdown (SPF, DKIM, DMARC, MX, blacklists, domain age) and the fixes that raise it most.',
    args: [domain],
  },
  {
    name: 'check-spf',
    field: 'checkSpf',
    answer: 'SpfAnswer',
    run: as(checkSpf),
    summary: 'The SPF record, validated, with RFC 7208 lookup counts and every include expanded; with ip, the check_host() result for that client.',
    args: [
      domain,
      text('ip', 'Client IPv4 or IPv6 address to evaluate the record for.'),
      text('sender', 'MAIL FROM address for the evaluation (default postmaster@domain).'),
      text('helo', 'HELO/EHLO name for the evaluation.'),
    ],
  },
  {
    name: 'check-dkim',
    field: 'checkDkim',
    answer: 'DkimAnswer',
    run: as(checkDkim),
    summary: 'The DKIM key under a selector, or a concurrent scan of 26 common selectors; key type, size and flags.',
    args: [domain, text('selector', 'Selector to look up; omitted, 26 common selectors are scanned.')],
  },
  {
    name: 'check-dmarc',
    field: 'checkDmarc',
    answer: 'DmarcAnswer',
    run: as(checkDmarc),
    summary: 'The DMARC record parsed and explained tag by tag, with the organisational-domain fallback and report-address authorisation.',
    args: [domain],
  },
  {
    name: 'check-bimi',
    field: 'checkBimi',
    answer: 'BimiAnswer',
    run: as(checkBimi),
    summary: 'The BIMI record, the SVG Tiny PS logo, the mark certificate and the DMARC enforcement mailbox providers require.',
    args: [domain, text('selector', 'BIMI selector (default "default").')],
  },
  {
    name: 'check-mta-sts',
    field: 'checkMtaSts',
    answer: 'MtaStsAnswer',
    run: as(checkMtaSts),
    summary: 'The _mta-sts record and the policy file (mode, MX patterns, max_age) checked against the real MX hosts, and TLS-RPT.',
    args: [domain],
  },
  {
    name: 'check-dns',
    field: 'checkDns',
    answer: 'DnsAnswer',
    run: as(checkDns),
    summary: 'Records of one type for a name, typed per record type, with TTLs.',
    args: [
      domain,
      {
        name: 'type',
        kind: 'enum',
        required: false,
        enumType: 'DnsType',
        values: CHECK_DNS_TYPES,
        description: `One of ${CHECK_DNS_TYPES.join(', ')}; default MX.`,
      },
    ],
  },
  {
    name: 'check-blacklist',
    field: 'checkBlacklist',
    answer: 'BlacklistAnswer',
    run: as(checkBlacklist),
    summary: "Listing of a domain (and its mail servers' addresses) or an IPv4 address on 20+ maintained blacklists.",
    args: [{ name: 'input', kind: 'domain', required: true, description: 'A domain name or an IPv4 address.' }],
  },
  {
    name: 'check-uribl',
    field: 'checkUribl',
    answer: 'UriblAnswer',
    run: as(checkUribl),
    summary: 'Listing of each domain on URI blacklists (a listed link domain sends the whole message to spam).',
    args: [list('domains', URIBL_LIMIT, 'Domains')],
  },
  {
    name: 'check-nameservers',
    field: 'checkNameservers',
    answer: 'NameserversAnswer',
    run: as(checkNameservers),
    summary: 'NS records and the DNS provider of each domain.',
    args: [list('domains', NAMESERVERS_LIMIT, 'Domains')],
  },
  {
    name: 'check-domain-expiry',
    field: 'checkDomainExpiry',
    answer: 'DomainExpiryAnswer',
    run: as(checkDomainExpiry),
    summary: 'Registrar, creation and expiry dates and days remaining, over RDAP with a WHOIS fallback.',
    args: [domain],
  },
  {
    name: 'check-provider-domain',
    field: 'checkProviderDomain',
    answer: 'ProviderDomainAnswer',
    run: as(checkProviderDomain),
    summary: 'Whether the domain is already attached to a Google Workspace account or clear for a fresh tenant, with the evidence.',
    args: [domain],
  },
  {
    name: 'check-cname',
    field: 'checkCname',
    answer: 'CnameAnswer',
    run: as(checkCname),
    summary: 'The full CNAME chain from a host, with the mistakes that break a tracking domain; optionally asserts where it ends.',
    args: [
      { name: 'host', kind: 'domain', required: true, description: 'Host name such as track.example.com.' },
      text('expected', 'The name the chain should reach.'),
    ],
  },
  {
    name: 'verify-email',
    field: 'verifyEmail',
    answer: 'VerifyEmailAnswer',
    run: as(verifyEmail),
    summary: 'Per address: syntax, live MX, disposable provider and role prefix. No SMTP connection is opened.',
    args: [list('emails', VERIFY_EMAIL_LIMIT, 'Addresses')],
  },
  {
    name: 'segment-esp',
    field: 'segmentEsp',
    answer: 'SegmentEspAnswer',
    run: as(segmentEsp),
    summary: 'Domains split by mail provider from their MX records: Google, Microsoft, a security gateway, other, unresolved.',
    args: [list('domains', SEGMENT_ESP_LIMIT, 'Domains')],
  },
];

/** The union a check field answers: its answer, or UnfinishedCheck when the deadline cut it off. */
export function resultTypeName(declaration: CheckDeclaration): string {
  return `${declaration.field.charAt(0).toUpperCase()}${declaration.field.slice(1)}Result`;
}
