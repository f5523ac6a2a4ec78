import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { createDnsLookup } from '../../clients/dns/create-dns-lookup.js';
import { checkHost } from '../../resolvers/checks/spf/check-host.js';
import { parseSpfIp } from '../../resolvers/checks/spf/spf-ip.js';
import { spfIdentity } from '../../resolvers/checks/spf/spf-identity.js';
import { startTestDnsServer } from '../support/dns-server.js';
import type { TestDnsBehaviour, TestDnsServer, ZoneRecord } from '../support/dns-server.js';
import { conformanceFile } from '../support/conformance-dir.js';

// The openspf RFC 7208 suite (shared/conformance/spf-openspf-rfc7208, see its SOURCE.md): every
// scenario's zone is served by the local test DNS server, every case is run through check_host().
const SUITE = conformanceFile('spf-openspf-rfc7208', 'rfc7208-tests.yml');

interface SuiteCase {
  description?: string;
  spec?: string;
  helo: string;
  host: string;
  mailfrom: string;
  result: string | string[];
  explanation?: string;
}
interface Scenario {
  description: string;
  tests: Record<string, SuiteCase>;
  zonedata?: Record<string, unknown[]>;
}

const scenarios = parseAllDocuments(readFileSync(SUITE, 'utf8')).map((doc) => doc.toJS() as Scenario);

const ALL_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'PTR', 'CNAME'] as const;

/**
 * The suite's driver conventions (SOURCE.md): SPF-type records are also served as TXT unless the
 * name has TXT records or "TXT: NONE"; "TIMEOUT" makes every type the name has no records of time out.
 */
function zoneFrom(zonedata: Record<string, unknown[]>): { records: ZoneRecord[]; behaviours: Record<string, TestDnsBehaviour> } {
  const records: ZoneRecord[] = [];
  const behaviours: Record<string, TestDnsBehaviour> = {};
  for (const [rawName, entries] of Object.entries(zonedata)) {
    const name = rawName.toLowerCase();
    const txtSuppressed = entries.some((e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>).TXT === 'NONE');
    const hasTxt = entries.some((e) => typeof e === 'object' && e !== null && 'TXT' in e && (e as Record<string, unknown>).TXT !== 'NONE');
    const own: ZoneRecord[] = [];
    let timeout = false;
    for (const entry of entries) {
      if (entry === 'TIMEOUT') {
        timeout = true;
        continue;
      }
      const [type, value] = Object.entries(entry as Record<string, unknown>)[0] as [string, unknown];
      const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [String(v)]);
      if (type === 'TXT' && value !== 'NONE') own.push({ name, type: 'TXT', data: strings(value) });
      if (type === 'SPF' && !hasTxt && !txtSuppressed) own.push({ name, type: 'TXT', data: strings(value) });
      if (type === 'A') own.push({ name, type: 'A', data: String(value) });
      if (type === 'AAAA') own.push({ name, type: 'AAAA', data: String(value).toLowerCase() });
      if (type === 'PTR') own.push({ name, type: 'PTR', data: String(value) });
      if (type === 'CNAME') own.push({ name, type: 'CNAME', data: String(value) });
      if (type === 'MX') {
        const [preference, exchange] = value as [number, string];
        own.push({ name, type: 'MX', data: { preference, exchange } });
      }
    }
    records.push(...own);
    if (timeout) for (const type of ALL_TYPES) if (!own.some((r) => r.type === type)) behaviours[`${name}/${type}`] = 'timeout';
  }
  return { records, behaviours };
}

const servers: TestDnsServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

let total = 0;
/** Cases run and cases that got through every assertion; the rest failed. */
const outcomes = { ran: 0, passed: 0 };

for (const scenario of scenarios) {
  describe(`RFC 7208 suite: ${scenario.description}`, () => {
    let server: TestDnsServer | undefined;
    const dnsServer = async (): Promise<TestDnsServer> => {
      if (!server) {
        server = await startTestDnsServer(zoneFrom(scenario.zonedata ?? {}));
        servers.push(server);
      }
      return server;
    };
    for (const [id, test] of Object.entries(scenario.tests)) {
      total += 1;
      const accepted = Array.isArray(test.result) ? test.result : [test.result];
      it(`${id}: ${accepted.join(' or ')}`, async () => {
        const dns = createDnsLookup({ servers: [(await dnsServer()).server], timeoutMs: 150, tries: 1, concurrency: 32 });
        const ip = parseSpfIp(test.host);
        expect(ip, `host ${test.host} parses`).not.toBeNull();
        const { domain, sender } = spfIdentity(test.mailfrom ?? '', test.helo);
        const answer = await checkHost({ ip: ip!, domain, sender, helo: test.helo }, { dns, now: () => new Date('2026-01-01T00:00:00Z') });
        outcomes.ran += 1;
        expect(accepted, `result (${answer.problem ?? 'no problem'})`).toContain(answer.result);
        // Where the suite names a fail's explanation, ours is the same (DEFAULT when the record gives none).
        const explained = test.explanation !== undefined && answer.result === 'fail';
        expect(explained ? (answer.explanation ?? 'DEFAULT') : test.explanation).toBe(test.explanation);
        outcomes.passed += 1;
      });
    }
  });
}

describe('RFC 7208 suite size', () => {
  it('holds the 203 cases of the RFC 7208 suite', () => {
    expect(total).toBe(203);
  });
});

afterAll(() => {
  console.log(`RFC 7208 conformance: ${outcomes.passed} passed, ${outcomes.ran - outcomes.passed} failed of ${total}`);
});
