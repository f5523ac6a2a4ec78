import { domainToASCII } from 'node:url';
import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import { organizationalDomain } from '../organizational-domain.js';
import type { DmarcReportUri } from './dmarc-record.js';

/** Where one rua/ruf URI sends reports, and whether that destination accepted them. */
export interface DmarcReportDestination {
  readonly tag: 'rua' | 'ruf';
  readonly uri: string;
  /** The domain of the mailto: address; null for a URI that is not a mail address. */
  readonly destination: string | null;
  /** True when the destination is in the same organisation, or publishes the authorisation record. */
  readonly external: boolean;
  /** The TXT name asked (external destinations only). */
  readonly authorizationRecord: string | null;
  /** null when not applicable, or when the lookup failed. */
  readonly authorized: boolean | null;
  /** Why authorised is null: "not_mailto", "not_an_address", "lookup_failed"; else null. */
  readonly problem: 'not_mailto' | 'not_an_address' | 'lookup_failed' | null;
}

function mailDomain(uri: string): string | null {
  const match = /^mailto:([^?]*)/i.exec(uri);
  if (!match) return null;
  let address: string;
  try {
    address = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  const domain = domainToASCII(
    address
      .slice(at + 1)
      .toLowerCase()
      .replace(/\.$/, ''),
  );
  return domain.includes('.') ? domain : null;
}

/**
 * RFC 7489 section 7.1: a receiver sends reports to an address in another organisational domain only
 * if that domain publishes a TXT record starting with "v=DMARC1" at
 * <policy-domain>._report._dmarc.<destination-domain>; otherwise the reports are silently dropped.
 * `policyDomain` is the domain whose _dmarc record named the URIs.
 */
export async function checkReportDestinations(
  policyDomain: string,
  uris: readonly { readonly tag: 'rua' | 'ruf'; readonly uri: DmarcReportUri }[],
  dns: DnsLookup,
): Promise<DmarcReportDestination[]> {
  const ownOrg = organizationalDomain(policyDomain) ?? policyDomain;
  return Promise.all(
    uris.map(async ({ tag, uri }): Promise<DmarcReportDestination> => {
      const base = { tag, uri: uri.address };
      if (!/^mailto:/i.test(uri.address)) {
        return { ...base, destination: null, external: false, authorizationRecord: null, authorized: null, problem: 'not_mailto' };
      }
      const destination = mailDomain(uri.address);
      if (destination === null) {
        return { ...base, destination: null, external: false, authorizationRecord: null, authorized: null, problem: 'not_an_address' };
      }
      if ((organizationalDomain(destination) ?? destination) === ownOrg) {
        return { ...base, destination, external: false, authorizationRecord: null, authorized: true, problem: null };
      }
      const name = `${policyDomain}._report._dmarc.${destination}`;
      const answer = await dns.lookup(name, 'TXT');
      if (!answer.ok && answer.failure !== 'nxdomain' && answer.failure !== 'nodata') {
        return { ...base, destination, external: true, authorizationRecord: name, authorized: null, problem: 'lookup_failed' };
      }
      const authorized = answer.ok && answer.records.some((r) => /^v=DMARC1(?:[ \t]*;|[ \t]*$)/.test(r.data.join('')));
      return { ...base, destination, external: true, authorizationRecord: name, authorized, problem: null };
    }),
  );
}
