import { builder } from './builder.js';
import type { Context } from '../resolvers/context.js';
import type { FullCheckContext } from '../resolvers/checks/full-check-context.js';
import { checkSpf } from '../resolvers/checks/spf/check-spf.js';
import { checkDkim } from '../resolvers/checks/dkim/check-dkim.js';
import { checkDmarc } from '../resolvers/checks/dmarc/check-dmarc.js';
import { checkBimi } from '../resolvers/checks/bimi/check-bimi.js';
import { checkMtaSts } from '../resolvers/checks/mta-sts/check-mta-sts.js';
import { checkDns } from '../resolvers/checks/dns-records/check-dns.js';
import { checkCname } from '../resolvers/checks/cname/check-cname.js';
import { checkBlacklist } from '../resolvers/checks/blacklist/check-blacklist.js';
import { checkUribl } from '../resolvers/checks/uribl/check-uribl.js';
import { checkNameservers } from '../resolvers/checks/nameservers/check-nameservers.js';
import { checkDomainExpiry } from '../resolvers/checks/domain-expiry/check-domain-expiry.js';
import { checkProviderDomain } from '../resolvers/checks/provider-domain/check-provider-domain.js';
import { verifyEmail } from '../resolvers/checks/verify-email/verify-email.js';
import { segmentEsp } from '../resolvers/checks/segment-esp/segment-esp.js';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import { runBoundedCheck } from '../resolvers/limits/run-bounded-check.js';

type Args<Names extends string> = Partial<Record<Names, string>>;

/**
 * One public field per check, open to every caller (no authScopes). Each answer is a JSON object whose
 * fields are documented in docs/checks.md: the checks' answers are wide and vary by finding, so they
 * are not mirrored as GraphQL types. Omitted arguments reach the check as undefined. Every field runs
 * inside its HTTP request's bounds (runBoundedCheck: DNS budget, deadline, check units, bulk items,
 * answer size), shared with the request's other aliases, batched operations and MCP messages.
 */
function checkField<Names extends string>(
  field: string,
  argNames: readonly Names[],
  description: string,
  run: (input: Args<Names>, ctx: FullCheckContext) => Promise<unknown>,
) {
  builder.queryField(field, (t) => t.field({
    type: 'JSON',
    description,
    args: Object.fromEntries(argNames.map((name) => [name, t.arg.string({ required: false })])) as Record<Names, ReturnType<typeof t.arg.string>>,
    resolve: (_root, args, ctx: Context) => {
      const input: Args<Names> = {};
      for (const name of argNames) {
        const value = (args as Record<string, unknown>)[name];
        if (typeof value === 'string') input[name] = value;
      }
      return runBoundedCheck(field, input, ctx, run);
    },
  }));
}

checkField('checkDeliverability', ['domain'], 'A-F cold-email readiness grade with breakdown and fixes.', (i, c) => checkDeliverability(i as Parameters<typeof checkDeliverability>[0], c));
checkField('checkSpf', ['domain', 'ip', 'sender', 'helo'], 'SPF record, lookup counts, include tree; with ip, check_host().', (i, c) => checkSpf(i as Parameters<typeof checkSpf>[0], c));
checkField('checkDkim', ['domain', 'selector'], 'DKIM key under a selector, or a scan of 26 common selectors.', (i, c) => checkDkim(i as Parameters<typeof checkDkim>[0], c));
checkField('checkDmarc', ['domain'], 'DMARC record parsed and explained.', (i, c) => checkDmarc(i as Parameters<typeof checkDmarc>[0], c));
checkField('checkBimi', ['domain', 'selector'], 'BIMI record, logo, certificate and DMARC enforcement.', (i, c) => checkBimi(i as Parameters<typeof checkBimi>[0], c));
checkField('checkMtaSts', ['domain'], 'MTA-STS record and policy, TLS-RPT.', (i, c) => checkMtaSts(i as Parameters<typeof checkMtaSts>[0], c));
checkField('checkDns', ['domain', 'type'], 'Records of one type.', (i, c) => checkDns(i as Parameters<typeof checkDns>[0], c));
checkField('checkCname', ['host', 'expected'], 'CNAME chain of a host.', (i, c) => checkCname(i as Parameters<typeof checkCname>[0], c));
checkField('checkBlacklist', ['input'], 'Blacklist listing of a domain or IPv4 address.', (i, c) => checkBlacklist(i as Parameters<typeof checkBlacklist>[0], c));
checkField('checkUribl', ['domains'], 'URI blacklist listing per domain.', (i, c) => checkUribl(i as Parameters<typeof checkUribl>[0], c));
checkField('checkNameservers', ['domains'], 'NS records and DNS provider per domain.', (i, c) => checkNameservers(i as Parameters<typeof checkNameservers>[0], c));
checkField('checkDomainExpiry', ['domain'], 'Registration and expiry over RDAP or WHOIS.', (i, c) => checkDomainExpiry(i as Parameters<typeof checkDomainExpiry>[0], c));
checkField('checkProviderDomain', ['domain'], 'Google Workspace tenancy evidence.', (i, c) => checkProviderDomain(i as Parameters<typeof checkProviderDomain>[0], c));
checkField('verifyEmail', ['emails'], 'Email address verification without SMTP.', (i, c) => verifyEmail(i as Parameters<typeof verifyEmail>[0], c));
checkField('segmentEsp', ['domains'], 'Domains split by mail provider.', (i, c) => segmentEsp(i as Parameters<typeof segmentEsp>[0], c));
