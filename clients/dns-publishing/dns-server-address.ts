import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DnsPublishingError } from './publishing-error.js';
import { addressRefusal } from '../http/address-refusal.js';

/**
 * Where a customer's DNS server may be: a public unicast address, given as such or as a host name
 * whose every address is public. The server is a stranger's choice and this service connects to it
 * from inside its own network, so the checks' SSRF rule (address-refusal.ts: no loopback, RFC 1918,
 * link-local, metadata 169.254.169.254, CGNAT, documentation or other special ranges) applies at
 * creation and again at each use, where we connect to the address just vetted (a name re-pointed at
 * an internal address after creation is refused then). DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES=1
 * lifts the rule for tests and for an operator whose own DNS server is on a private network.
 */
export async function vetDnsServer(server: string, allowPrivate: boolean): Promise<string> {
  const host = server.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0)
      throw new DnsPublishingError(
        'dns_server_refused',
        `${host} does not resolve to an address; send the DNS server's IP address or a host name that resolves.`,
      );
  }
  if (!allowPrivate) {
    for (const address of addresses) {
      const refusal = addressRefusal(address);
      if (refusal)
        throw new DnsPublishingError(
          'dns_server_refused',
          `${host === address ? host : `${host} resolves to ${address}, which`} is not a public address (${refusal}); a DNS connection's server must be reachable on the internet.`,
        );
    }
  }
  return addresses[0]!;
}

/**
 * The port a customer's RFC 2136 server may be reached on: DNS_CONNECTIONS_PORTS (53 only in
 * production unless the operator lists others). Checked at creation and again at each use, as the
 * address is, so a connection stored before the rule does not slip past it.
 */
export function vetDnsServerPort(port: number, allowedPorts: readonly number[] | null): void {
  if (allowedPorts === null || allowedPorts.includes(port)) return;
  throw new DnsPublishingError(
    'dns_server_port_refused',
    `This service connects to DNS servers on port ${allowedPorts.join(', ')} only, not ${port}; send "port": ${allowedPorts[0] ?? 53} (or leave it out for 53), or ask the operator to allow port ${port} (DNS_CONNECTIONS_PORTS).`,
  );
}
