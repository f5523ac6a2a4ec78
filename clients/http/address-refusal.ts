import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { SPECIAL_IPV4, SPECIAL_IPV6, type SpecialRange } from './special-address-ranges.js';

/**
 * Why an address must not be connected to on a caller's behalf, or null when it is a public unicast
 * address. The checks fetch URLs and ask WHOIS servers that strangers choose (MTA-STS policies, BIMI
 * logos and certificates, WHOIS referrals), so a name pointing at 127.0.0.1, an RFC 1918 network or
 * the cloud metadata address 169.254.169.254 would otherwise let anyone make this service read its
 * own network (SSRF).
 *
 * IPv4: every range of IANA's IPv4 Special-Purpose Address Registry, plus multicast and 240/4.
 * IPv6: only global unicast (2000::/3) is allowed at all, minus every range of IANA's IPv6
 * Special-Purpose Address Registry. Forms that carry an IPv4 address to which the packets end up
 * going are judged by that address: IPv4-mapped ::ffff:a.b.c.d (a dual-stack socket connects to
 * a.b.c.d itself), NAT64 64:ff9b::/96 (RFC 6052), 6to4 2002:AABB:CCDD::/48 (RFC 3056), Teredo
 * 2001:0::/32 (RFC 4380: server in bits 32-63, client XOR-ed in the last 32 bits) and ISATAP
 * interface identifiers ...:0:5efe:a.b.c.d (RFC 5214). IPv4-compatible ::a.b.c.d (deprecated by
 * RFC 4291) and the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215, where the embedded address's
 * position depends on a prefix length only the local network knows) are refused whatever they hold.
 */
export function addressRefusal(address: string): string | null {
  // Node's own notion of an address (what connect() will accept), not ipaddr.js's looser one, which
  // also takes "127.1" or "0x7f.0.0.1".
  const family = isIP(address);
  if (family === 0) return `"${address}" is not an IP address`;
  if (family === 4) return ipv4Refusal(ipaddr.IPv4.parse(address));
  if (address.includes('%')) return `${address} carries a zone index, which only link-local addresses use`;
  return ipv6Refusal(ipaddr.IPv6.parse(canonicalIpv6(address)), address);
}

/**
 * The WHATWG URL parser's canonical text of an IPv6 address (the same bits inet_pton gives the
 * socket). ipaddr.js reads "::127.0.0.1" as the IPv4-mapped ::ffff:7f00:1, while the kernel connects
 * to the IPv4-compatible ::7f00:1; judging the canonical form keeps the two from disagreeing.
 */
function canonicalIpv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

function ipv4Refusal(v4: ipaddr.IPv4): string | null {
  const range = matching(v4, SPECIAL_IPV4);
  return range ? `${v4.toString()} is in the IPv4 ${range.name} range (${range.cidr})` : null;
}

function ipv6Refusal(v6: ipaddr.IPv6, shown: string): string | null {
  const bytes = v6.toByteArray();
  const v4At = (from: number, xor = 0) => new ipaddr.IPv4(bytes.slice(from, from + 4).map((b) => b ^ xor));
  const judged = (inner: ipaddr.IPv4, how: string): string | null => {
    const refusal = ipv4Refusal(inner);
    return refusal ? `${shown} is ${how} ${inner.toString()}, and ${refusal}` : null;
  };

  if (v6.match(MAPPED, 96)) return judged(v4At(12), 'the IPv4-mapped form of');
  if (v6.match(NAT64_WELL_KNOWN, 96)) return judged(v4At(12), 'the NAT64 (64:ff9b::/96) form of');
  if (v6.match(SIX_TO_FOUR, 16)) return judged(v4At(2), 'a 6to4 address routed to');
  if (v6.match(TEREDO, 32)) {
    return judged(v4At(4), 'a Teredo address whose server is') ?? judged(v4At(12, 0xff), 'a Teredo address whose client is');
  }
  const range = matching(v6, SPECIAL_IPV6);
  if (range) return `${shown} is in the IPv6 ${range.name} range (${range.cidr})`;
  // After the registry, which names :: and ::1 more precisely.
  if (v6.match(COMPATIBLE, 96)) {
    return `${shown} is the deprecated IPv4-compatible form of ${v4At(12).toString()} (::/96, RFC 4291), which is never connected to`;
  }
  if (!v6.match(GLOBAL_UNICAST, 3)) return `${shown} is outside IPv6 global unicast space (2000::/3)`;
  // ISATAP interface identifier 0000:5efe or 0200:5efe (u/l and group bits aside) followed by the IPv4 address.
  if ((bytes[8]! & 0xfc) === 0 && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe) {
    return judged(v4At(12), 'an ISATAP address tunnelled to');
  }
  return null;
}

function matching(address: ipaddr.IPv4 | ipaddr.IPv6, table: readonly SpecialRange[]): SpecialRange | null {
  for (const range of table) {
    const [network, bits] = range.parsed;
    if (address.kind() === network.kind() && address.match(network, bits)) return range;
  }
  return null;
}

const MAPPED = ipaddr.IPv6.parse('::ffff:0:0');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');
const SIX_TO_FOUR = ipaddr.IPv6.parse('2002::');
const TEREDO = ipaddr.IPv6.parse('2001::');
const COMPATIBLE = ipaddr.IPv6.parse('::');
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');
