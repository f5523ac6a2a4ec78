import type { ZoneRecord } from '../support/dns-server.js';
import { dnsblTestPoints } from '../support/dnsbl-test-points.js';
import { orderingZone, FREE_DOMAINS } from '../orders/support/ordering-fixture.js';
import { rdapDomain, startTestRdapServer, type TestRdapServer } from '../support/rdap-server.js';

/** Domain age comes from RDAP over HTTP: a local server answers for the ordering domains, so no test reaches the internet. */
export function startJobsRdapServer(): Promise<TestRdapServer> {
  return startTestRdapServer({
    tlds: ['com'],
    domains: Object.fromEntries(FREE_DOMAINS.map((d) => [d, rdapDomain(d, 'Example Registrar, Inc.', '2020-03-01T12:00:00Z', '2030-09-01T12:00:00Z')])),
  });
}

/** A domain built right: mail hosts, SPF, DMARC and a web address (DKIM is left out: a problem to show). */
export function builtDomainRecords(domain: string): ZoneRecord[] {
  return [
    { name: domain, type: 'MX', data: { preference: 1, exchange: 'smtp.google.com' } },
    { name: domain, type: 'TXT', data: ['v=spf1 ip4:192.0.2.25 -all'] },
    { name: `_dmarc.${domain}`, type: 'TXT', data: ['v=DMARC1; p=quarantine; rua=mailto:dmarc@' + domain] },
    { name: domain, type: 'A', data: '192.0.2.80' },
  ];
}

/** The zone for the jobs tests: ordering's domains, the blocklists' test points, and optional listings. */
export function jobsZone(built: readonly string[], listed: readonly string[] = []): ZoneRecord[] {
  return [
    ...orderingZone(),
    ...dnsblTestPoints(),
    ...built.flatMap(builtDomainRecords),
    ...listed.map((d): ZoneRecord => ({ name: `${d}.dbl.spamhaus.org`, type: 'A', data: '127.0.1.2' })),
  ];
}

/** A record of a domain's setup as GET /v1/domains/{domain}/setup answers it. */
export interface SetupRecordAnswer {
  readonly type: string;
  readonly name: string;
  readonly value: string;
  readonly priority: number | null;
  readonly required: boolean;
}

/**
 * What a person copies from the setup into their DNS host (the required records; TXT split into
 * 255-byte strings), as test/domains/domain-setup.test.ts publishes them: a built domain goes live
 * only once these are served.
 */
export function publishedSetup(records: readonly SetupRecordAnswer[]): ZoneRecord[] {
  return records
    .filter((r) => r.required)
    .map((r): ZoneRecord => {
      if (r.type === 'MX') return { name: r.name, type: 'MX', data: { preference: r.priority ?? 10, exchange: r.value } };
      if (r.type === 'A') return { name: r.name, type: 'A', data: r.value };
      return { name: r.name, type: 'TXT', data: r.value.match(/.{1,255}/g) ?? [] };
    });
}

/** Settings that let a built domain go live seconds after its records appear (the defaults wait minutes). */
export const FAST_SETUP_RECHECK = { SETUP_RECHECK_FIRST_MS: '200', SETUP_RECHECK_MAX_MS: '400', FORWARD_TARGET: '192.0.2.80' } as const;
