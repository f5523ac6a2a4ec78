import type { ZoneRecord } from './dns-server.js';
import { dnsblTestPoints } from './dnsbl-test-points.js';
import { verificationRecords } from './domain-verification.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_CHAIN } from './google-mail-zone.js';

/**
 * A small, well-configured sending domain (good.test) and a poorly configured one (bad.test), shared
 * by the tests that go through the service's doors. Names under .test never exist on the internet.
 */
export const fixtureZone: ZoneRecord[] = [
  { name: 'good.test', type: 'MX', data: { preference: 10, exchange: 'mx.good.test' } },
  { name: 'mx.good.test', type: 'A', data: '192.0.2.10' },
  { name: 'good.test', type: 'A', data: '192.0.2.20' },
  { name: 'good.test', type: 'NS', data: 'ns1.good.test' },
  { name: 'good.test', type: 'TXT', data: ['v=spf1 mx include:_spf.mailer.test -all'] },
  { name: '_spf.mailer.test', type: 'TXT', data: ['v=spf1 ip4:198.51.100.0/24 -all'] },
  { name: '_dmarc.good.test', type: 'TXT', data: ['v=DMARC1; p=reject; rua=mailto:dmarc@good.test'] },
  {
    name: 'google._domainkey.good.test',
    type: 'TXT',
    data: [
      'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtQ0Wq1DS0sB9bqIHVcQY1SIDoNdlRFNwLPS5q4fl5BvZTNdHXMfuIXGvo7/WcYTEUVOiaaBBmIl3L6+QgEphT6NKM0ORQaMHQ2mbzZY5lNWTvY6NNe3/Plu1y4dFfCGzt1HyG/5sfZxfSlDmCPdeY6/lGlS8z5VxmzhYA5CdrfYfjdUwz4a7H5HozA9uZf7wUPFGj1sxh0AXh2t/0JtxNHoPlbdXfW36sgP5ybEJkChuMU6zvsFYSewtw5WdjZWEzpfwjRzZs5T5LAJnXWpz+iBLRLSqfZU61JBqmD5FFgg0a2VDLFGXnw5ZgoeKkbRgI7g0yO9gwdsyMz2eIpZOgwIDAQAB',
    ],
  },
  { name: '_domainkey.good.test', type: 'TXT', data: ['o=~'] },
  { name: 'bad.test', type: 'A', data: '192.0.2.30' },
  { name: 'bad.test', type: 'TXT', data: ['v=spf1 +all'] },
  { name: 'track.good.test', type: 'CNAME', data: 'links.mailer.test' },
  { name: 'links.mailer.test', type: 'A', data: '192.0.2.40' },
  // The blocklists' RFC 5782 test points, so the lists read as alive.
  ...dnsblTestPoints(),
];

/**
 * Registered (they answer), delegated (NS records) and without Google records: domains a newcomer
 * can preview and order against `npm run dev-dns` (README, "Trying it"). Each can be on one order
 * only, so there are several; a fresh DATA_DIR frees them all again.
 */
export const orderableDemoDomains = [
  'northwind-mail.test',
  'contoso-reach.test',
  'fabrikam-outreach.test',
  'tailspin-inbox.test',
  'wingtip-sales.test',
] as const;

/** A delegated domain that receives mail at Google, so ordering it is refused (attached_to_google_tenant). */
export const googleAttachedDemoDomain = 'google-taken.test';

/**
 * What `npm run dev-dns` serves beside fixtureZone: the orderable demo domains and the Google-attached
 * one, each with the TXT at _inbox-verification.<domain> holding the demo account's fixed token, so
 * the demo account can order them (docs/ordering.md, "Proving a domain is yours").
 */
export const orderingDemoZone: ZoneRecord[] = [
  ...orderableDemoDomains.flatMap((name): ZoneRecord[] => [
    { name, type: 'NS', data: 'ns1.good.test' },
    { name, type: 'NS', data: 'ns2.good.test' },
  ]),
  { name: googleAttachedDemoDomain, type: 'NS', data: 'ns1.good.test' },
  { name: googleAttachedDemoDomain, type: 'MX', data: { preference: 1, exchange: 'aspmx.l.google.com' } },
  ...verificationRecords([...orderableDemoDomains, googleAttachedDemoDomain]),
  // Google's SPF chain and MX host addresses, so a demo domain published for Google verifies (its
  // SPF passes Google's address, its MX resolves) and grades A on the checks page.
  ...GOOGLE_SPF_CHAIN,
  ...GOOGLE_MX_HOSTS,
];

/**
 * The TSIG key `npm run dev-dns` takes RFC 2136 updates with, for the demo domains: fixed and public
 * (a development key, like the demo account's token), so the README's walkthrough can create a DNS
 * connection to it and publish a demo domain's setup offline.
 */
export const devDnsTsigKey = {
  name: 'dev-update-key',
  algorithm: 'hmac-sha256',
  /** base64 of "dev-dns-update-key-not-a-secret!" (32 bytes). */
  secret: 'ZGV2LWRucy11cGRhdGUta2V5LW5vdC1hLXNlY3JldCE=',
} as const;

/** An SOA per demo domain: each is a zone of its own that the dev server takes updates for. */
export const demoDomainSoas: ZoneRecord[] = orderableDemoDomains.map(
  (name): ZoneRecord => ({
    name,
    type: 'SOA',
    data: { mname: 'ns1.good.test', rname: 'hostmaster.good.test', serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
  }),
);
