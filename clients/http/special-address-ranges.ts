import ipaddr from 'ipaddr.js';

/** One special-purpose range: its CIDR, a name a customer can read, and the parsed form for matching. */
export interface SpecialRange {
  readonly cidr: string;
  readonly name: string;
  readonly parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

function table(rows: readonly (readonly [string, string])[]): readonly SpecialRange[] {
  return rows.map(([cidr, name]) => ({ cidr, name, parsed: ipaddr.parseCIDR(cidr) }));
}

/**
 * IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), plus multicast and the
 * class E block. Ranges the registry calls "globally reachable" (AS112, AMT) are listed too: no
 * mail domain legitimately serves a policy, a logo or WHOIS from them. More specific rows first so
 * the sentence names the narrowest range.
 */
export const SPECIAL_IPV4 = table([
  ['0.0.0.0/8', 'unspecified "this network" (RFC 791)'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT shared space (RFC 6598)'],
  ['127.0.0.0/8', 'loopback (RFC 1122)'],
  ['169.254.0.0/16', 'link-local (RFC 3927; cloud metadata services live here)'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments (RFC 6890)'],
  ['192.0.2.0/24', 'documentation TEST-NET-1 (RFC 5737)'],
  ['192.31.196.0/24', 'AS112 (RFC 7535)'],
  ['192.52.193.0/24', 'AMT relay anycast (RFC 7450)'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast (RFC 7526)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['192.175.48.0/24', 'AS112 direct delegation (RFC 7534)'],
  ['198.18.0.0/15', 'benchmarking (RFC 2544)'],
  ['198.51.100.0/24', 'documentation TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0/24', 'documentation TEST-NET-3 (RFC 5737)'],
  ['224.0.0.0/4', 'multicast (RFC 5771)'],
  ['255.255.255.255/32', 'limited broadcast (RFC 919)'],
  ['240.0.0.0/4', 'reserved class E (RFC 1112)'],
]);

/**
 * IANA's IPv6 Special-Purpose Address Registry, plus the non-global blocks worth naming (ULA,
 * link-local, site-local, multicast). Everything outside 2000::/3 is refused anyway; these rows only
 * make the sentence precise. The embedding forms (::ffff:0:0/96, 64:ff9b::/96, 2002::/16,
 * 2001::/32) are judged by their IPv4 address before this table is consulted.
 */
export const SPECIAL_IPV6 = table([
  ['::/128', 'unspecified (RFC 4291)'],
  ['::1/128', 'loopback (RFC 4291)'],
  ['::ffff:0:0:0/96', 'IPv4-translated (RFC 6145)'],
  ['64:ff9b:1::/48', 'local-use NAT64 (RFC 8215)'],
  ['100::/64', 'discard-only (RFC 6666)'],
  ['100:0:0:1::/64', 'dummy prefix (RFC 9780)'],
  ['2001:2::/48', 'benchmarking (RFC 5180)'],
  ['2001:3::/32', 'AMT (RFC 7450)'],
  ['2001:4:112::/48', 'AS112 (RFC 7535)'],
  ['2001:10::/28', 'deprecated ORCHID (RFC 4843)'],
  ['2001:20::/28', 'ORCHIDv2 (RFC 7343)'],
  ['2001:30::/28', 'drone remote ID entity tags (RFC 9374)'],
  ['2001::/23', 'IETF protocol assignments (RFC 2928)'],
  ['2001:db8::/32', 'documentation (RFC 3849)'],
  ['2620:4f:8000::/48', 'AS112 direct delegation (RFC 7534)'],
  ['3fff::/20', 'documentation (RFC 9637)'],
  ['5f00::/16', 'segment routing SIDs (RFC 9602)'],
  ['fc00::/7', 'unique local ULA (RFC 4193)'],
  ['fe80::/10', 'link-local (RFC 4291)'],
  ['fec0::/10', 'deprecated site-local (RFC 3879)'],
  ['ff00::/8', 'multicast (RFC 4291)'],
]);
