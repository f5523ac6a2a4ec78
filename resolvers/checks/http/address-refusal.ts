import ipaddr from 'ipaddr.js';

/**
 * Why an address must not be fetched from on a caller's behalf, or null when it is a public unicast
 * address. The checks fetch URLs that strangers publish in DNS (MTA-STS policies, BIMI logos and
 * certificates), so a name pointing at 127.0.0.1, an RFC 1918 network or the cloud metadata address
 * 169.254.169.254 would otherwise let anyone make this service read its own network (SSRF).
 *
 * Only what ipaddr.js calls `unicast` is allowed: every special range it knows (private, loopback,
 * link-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved/documentation, ULA,
 * site-local, discard, Teredo, benchmarking...) is refused. IPv6 forms that embed an IPv4 address
 * (IPv4-mapped ::ffff:a.b.c.d, RFC 6145 translated, RFC 6052 NAT64 64:ff9b::/96, 6to4 2002::/16) are
 * judged by the IPv4 address inside them, because that is where the packets end up.
 */
export function addressRefusal(address: string): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Refusal(parsed as ipaddr.IPv4, address);
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) {
    const inner = ipv4Refusal(embedded, embedded.toString());
    return inner ? `${address} embeds ${inner}` : null;
  }
  const range = v6.range();
  return range === 'unicast' ? null : `${address} is in the IPv6 ${describe(range)} range`;
}

function ipv4Refusal(v4: ipaddr.IPv4, shown: string): string | null {
  const range = v4.range();
  return range === 'unicast' ? null : `${shown} is in the IPv4 ${describe(range)} range`;
}

function embeddedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = v6.range();
  const bytes = v6.toByteArray();
  const tail = (from: number) => new ipaddr.IPv4(bytes.slice(from, from + 4));
  if (range === 'ipv4Mapped' || range === 'rfc6145') return tail(12);
  // RFC 6052 well-known prefix /96 keeps the IPv4 address in the last 32 bits.
  if (range === 'rfc6052' && v6.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return tail(12);
  // RFC 3056: 2002:AABB:CCDD::/48 routes to AA.BB.CC.DD.
  if (range === '6to4') return tail(2);
  return null;
}

const NAMES: Record<string, string> = {
  private: 'private (RFC 1918)',
  loopback: 'loopback',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT (RFC 6598)',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
  reserved: 'reserved',
  uniqueLocal: 'unique local (ULA)',
};

function describe(range: string): string {
  return NAMES[range] ?? range;
}
