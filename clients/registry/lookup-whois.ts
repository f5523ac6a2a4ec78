import type { DnsLookup } from '../dns/dns-types.js';
import { resolveFetchAddresses } from '../http/resolve-fetch-addresses.js';
import type { RegistrationConfig } from '../../config/settings.js';
import type { RegistrationLookup } from './registration-record.js';
import { parseWhois, queryWhois, whoisReferral } from './whois-lookup.js';

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/**
 * The registration of `domain` over WHOIS (RFC 3912). The operator's WHOIS_SERVER, when set, is
 * trusted configuration and asked directly. Otherwise IANA names the TLD's server (whois.nic.<tld>
 * when it names none), and that server is a stranger: its name is resolved through the checks' own
 * DNS, every address vetted like an HTTPS fetch's (no private, loopback, metadata or other special
 * address unless CHECKS_ALLOW_PRIVATE_ADDRESSES=1), and the socket connects to the vetted address
 * itself, so no second resolution can answer differently (DNS rebinding).
 */
export async function lookupWhois(domain: string, tld: string, config: RegistrationConfig, dns: DnsLookup): Promise<RegistrationLookup> {
  if (config.whoisServer) {
    const { host, port } = config.whoisServer;
    return ask(host, port, domain, `${host}:${port}`, config.timeoutMs);
  }
  let host: string;
  const iana = config.ianaWhois;
  try {
    // IANA's own WHOIS names each TLD's server; whois.nic.<tld> is the common convention when it names none.
    host = whoisReferral(await queryWhois(iana.host, iana.port, tld, config.timeoutMs)) ?? `whois.nic.${tld}`;
  } catch (error) {
    return {
      kind: 'failed',
      reason: `IANA's WHOIS could not be asked for the .${tld} server (${error instanceof Error ? error.message : String(error)})`,
      server: iana.host,
    };
  }
  const port = config.referralPort;
  const server = `${host}:${port}`;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (!HOST_NAME.test(bare) && !/^[0-9a-f:.]+$/i.test(bare)) {
    return { kind: 'failed', reason: `IANA names "${host}" as the WHOIS server of .${tld}, which is not a host name`, server: null };
  }
  const vetted = await resolveFetchAddresses(dns, bare, config.allowPrivate, 'asked');
  if (!vetted.ok) {
    return {
      kind: 'failed',
      server,
      refused: vetted.code === 'address_refused',
      reason: `The WHOIS server of .${tld} could not be used: ${vetted.reason.replace(/\.$/, '')}`,
    };
  }
  // IPv4 first: WHOIS servers are older than their IPv6 and some publish an AAAA they do not serve on.
  const address = [...vetted.addresses].sort((a, b) => a.family - b.family)[0]!;
  return ask(address.address, port, domain, server, config.timeoutMs);
}

async function ask(connectTo: string, port: number, domain: string, server: string, timeoutMs: number): Promise<RegistrationLookup> {
  try {
    return parseWhois(await queryWhois(connectTo, port, domain, timeoutMs), server);
  } catch (error) {
    // A socket error code (ECONNREFUSED, EHOSTUNREACH...) says nothing useful to a caller but tells
    // closed from filtered; our own timeout and size messages say what happened.
    const detail =
      error instanceof Error && 'code' in error && error.code ? 'no connection could be made' : error instanceof Error ? error.message : String(error);
    return { kind: 'failed', reason: `WHOIS server ${server} could not be read (${detail})`, server };
  }
}
