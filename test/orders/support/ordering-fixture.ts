import type { ZoneRecord, TestDnsServer } from '../../support/dns-server.js';
import { startTestDnsServer } from '../../support/dns-server.js';
import { verificationRecords } from '../../support/domain-verification.js';
import { GOOGLE_MX_HOSTS, GOOGLE_SPF_FLAT } from '../../support/google-mail-zone.js';
import type { GoogleTenancyProbe } from '../../../resolvers/checks/provider-domain/google-tenancy-probe.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import type { StartOptions } from '../../../server/start-service.js';

/** Domains the local DNS server knows: registered and delegated, unless the name says otherwise. */
export const FREE_DOMAINS = Array.from({ length: 40 }, (_, i) => `fresh-outreach-${i}.com`);

const ns = (name: string): ZoneRecord[] => [
  { name, type: 'NS', data: 'ns1.dns-host.net' },
  { name, type: 'NS', data: 'ns2.dns-host.net' },
];

export function orderingZone(): ZoneRecord[] {
  return [
    ...FREE_DOMAINS.flatMap(ns),
    // MX at Google and the sign-in discovery says managed: attached to another tenant.
    ...ns('taken-tenant.com'),
    { name: 'taken-tenant.com', type: 'MX', data: { preference: 1, exchange: 'aspmx.l.google.com' } },
    // Only a verification record and the probe cannot tell: a warning, not a refusal.
    ...ns('maybe-tenant.com'),
    { name: 'maybe-tenant.com', type: 'TXT', data: ['google-site-verification=abc123'] },
    // Exists (an A record) but has no nameservers.
    { name: 'no-delegation.com', type: 'A', data: '192.0.2.10' },
    // Each delegated domain carries the demo accounts' verification record, as its owner would publish.
    ...verificationRecords([...FREE_DOMAINS, 'taken-tenant.com', 'maybe-tenant.com', 'flaky-dns.com']),
    // Google's SPF (one record, so lookup counts stay as the tests set them) and MX hosts: a setup's
    // SPF and MX verify only when they work (check_host passes Google's address; the host resolves).
    ...GOOGLE_SPF_FLAT,
    ...GOOGLE_MX_HOSTS,
  ];
}

/** Google's sign-in discovery, as the tests want it: managed for taken-tenant.com, unknown for maybe-tenant.com. */
export const tenancyProbe: GoogleTenancyProbe = {
  async probe(domain) {
    if (domain === 'taken-tenant.com') return 'managed';
    if (domain === 'maybe-tenant.com' || domain === 'flaky-dns.com') return 'unknown';
    return 'unmanaged';
  },
};

export interface OrderingHarness {
  readonly service: TestService;
  readonly dns: TestDnsServer;
  close(): Promise<void>;
}

export async function startOrderingService(options: StartOptions & { env?: NodeJS.ProcessEnv; socketless?: boolean } = {}): Promise<OrderingHarness> {
  const dns = await startTestDnsServer({ records: orderingZone(), behaviours: { 'flaky-dns.com': 'servfail' } });
  const service = await startTestService({
    googleTenancy: tenancyProbe,
    ...options,
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '400', DNS_TRIES: '1', ...options.env },
  });
  return {
    service,
    dns,
    close: async () => {
      await service.close();
      await dns.close();
    },
  };
}

export interface MailboxSpec {
  first_name: string;
  last_name: string;
  local_part: string;
}

export function mailboxes(count: number): MailboxSpec[] {
  const people = [
    ['Alex', 'Morgan'],
    ['Sam', 'Rivera'],
    ['Jordan', 'Lee'],
    ['Casey', 'Kim'],
    ['Riley', 'Shaw'],
  ];
  return Array.from({ length: count }, (_, i) => {
    const [first, last] = people[i % people.length]!;
    return { first_name: first!, last_name: last!, local_part: `${first!.toLowerCase()}${i >= people.length ? i : ''}` };
  });
}

export function orderBody(domains: string[], perDomain = 2, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sku: 'google-inbox-unwarmed',
    domains: domains.map((domain) => ({ domain, forward_to: 'main-site.com', mailboxes: mailboxes(perDomain) })),
    ...extra,
  };
}

export async function postJson(
  service: TestService,
  path: string,
  body: unknown,
  init: { key?: string | null; headers?: Record<string, string>; method?: string } = {},
) {
  const response = await service.api(path, {
    method: init.method ?? 'POST',
    key: init.key === undefined ? service.demo.key : init.key,
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any, headers: response.headers };
}

/** The sandbox page flow a person goes through: setup link, open it, post a card, follow to success_url. */
export async function saveCardThroughSandboxPage(service: TestService, cardNumber: string, key = service.demo.key): Promise<{ location: string | null }> {
  const link = await postJson(
    service,
    '/v1/payment-method/setup-link',
    { success_url: 'https://example.com/saved', cancel_url: 'https://example.com/cancel' },
    { key },
  );
  if (link.status !== 200) throw new Error(`setup-link answered ${link.status}: ${JSON.stringify(link.body)}`);
  const page = await fetch(link.body.url);
  if (page.status !== 200) throw new Error(`card page answered ${page.status}`);
  const posted = await fetch(link.body.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: cardNumber, expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace' }).toString(),
  });
  if (posted.status !== 303) throw new Error(`card form answered ${posted.status}`);
  return { location: posted.headers.get('location') };
}
