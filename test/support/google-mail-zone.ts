import type { ZoneRecord } from './dns-server.js';

/**
 * Google's side of a Workspace domain's mail, as Google publishes it (2026), for the demo DNS and the
 * tests: `_spf.google.com` includes three netblock records of address ranges and ends `~all`, and
 * the MX hosts have addresses. A setup's SPF is verified when check_host passes Google's sending
 * address (35.190.247.13, in _netblocks.google.com), and its MX when the host resolves.
 */
export const GOOGLE_SPF_CHAIN: ZoneRecord[] = [
  { name: '_spf.google.com', type: 'TXT', data: ['v=spf1 include:_netblocks.google.com include:_netblocks2.google.com include:_netblocks3.google.com ~all'] },
  {
    name: '_netblocks.google.com',
    type: 'TXT',
    data: [
      'v=spf1 ip4:35.190.247.0/24 ip4:64.233.160.0/19 ip4:66.102.0.0/20 ip4:66.249.80.0/20 ip4:72.14.192.0/18 ip4:74.125.0.0/16 ip4:108.177.8.0/21 ip4:173.194.0.0/16 ip4:209.85.128.0/17 ip4:216.58.192.0/19 ip4:216.239.32.0/19 ~all',
    ],
  },
  {
    name: '_netblocks2.google.com',
    type: 'TXT',
    data: [
      'v=spf1 ip6:2001:4860:4000::/36 ip6:2404:6800:4000::/36 ip6:2607:f8b0:4000::/36 ip6:2800:3f0:4000::/36 ip6:2a00:1450:4000::/36 ip6:2c0f:fb50:4000::/36 ~all',
    ],
  },
  {
    name: '_netblocks3.google.com',
    type: 'TXT',
    data: [
      'v=spf1 ip4:172.217.0.0/19 ip4:172.217.32.0/20 ip4:172.217.128.0/19 ip4:172.217.160.0/20 ip4:172.217.192.0/19 ip4:172.253.56.0/21 ip4:172.253.112.0/20 ip4:108.177.96.0/19 ip4:35.191.0.0/16 ip4:130.211.0.0/22 ~all',
    ],
  },
];

/** Google's MX hosts with addresses (smtp.google.com and the legacy ASPMX set). */
export const GOOGLE_MX_HOSTS: ZoneRecord[] = [
  { name: 'smtp.google.com', type: 'A', data: '142.250.153.26' },
  { name: 'smtp.google.com', type: 'AAAA', data: '2a00:1450:4013:c16::1a' },
  { name: 'aspmx.l.google.com', type: 'A', data: '142.250.153.27' },
  { name: 'alt1.aspmx.l.google.com', type: 'A', data: '142.250.115.27' },
  { name: 'alt2.aspmx.l.google.com', type: 'A', data: '142.250.4.27' },
  { name: 'alt3.aspmx.l.google.com', type: 'A', data: '64.233.171.27' },
  { name: 'alt4.aspmx.l.google.com', type: 'A', data: '142.250.152.27' },
];

/**
 * The same SPF in one record (one lookup for the include): for tests that count lookups around the
 * include, so their limits stay where the test puts them.
 */
export const GOOGLE_SPF_FLAT: ZoneRecord[] = [{ name: '_spf.google.com', type: 'TXT', data: ['v=spf1 ip4:35.190.247.0/24 ip4:209.85.128.0/17 ~all'] }];

/** As BIND zone-file lines of a zone "google.com". */
export function googleZoneLines(records: readonly ZoneRecord[]): string[] {
  return records.map((r) => {
    const owner = r.name === 'google.com' ? '@' : r.name.replace(/\.google\.com$/, '');
    if (r.type === 'TXT') return `${owner} IN TXT ${r.data.map((s) => `"${s}"`).join(' ')}`;
    return `${owner} IN ${r.type} ${String(r.data)}`;
  });
}
