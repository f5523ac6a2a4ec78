import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';
import { probeDnsblLiveness } from '../../jobs/probe-dnsbl-liveness.js';
import { DNSBL_LISTS } from '../../resolvers/checks/blacklist/dnsbl-lists.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsblTestPoints } from '../support/dnsbl-test-points.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The blocklists' liveness through REST, /graphql and MCP: without a probe every request asks each
 * list's two RFC 5782 test points; once the background probe has run, a request asks none of them
 * (and nothing of a list the probe found dead), yet still reports that list as dead; once the probe
 * is stale the requests ask again.
 */
const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const DOMAIN = 'sender.example';
const records: ZoneRecord[] = [
  // Barracuda's zone is gone: its test point 127.0.0.2 is NXDOMAIN, so its "not listed" would mean nothing.
  ...dnsblTestPoints(undefined, ['barracuda']),
  { name: DOMAIN, type: 'TXT', data: ['v=spf1 ip4:198.51.100.0/24 -all'] },
  { name: `_dmarc.${DOMAIN}`, type: 'TXT', data: [`v=DMARC1; p=reject; rua=mailto:dmarc@${DOMAIN}`] },
  { name: `google._domainkey.${DOMAIN}`, type: 'TXT', data: [`v=DKIM1; k=rsa; p=${key}`] },
  { name: DOMAIN, type: 'MX', data: { preference: 10, exchange: `mx.${DOMAIN}` } },
  { name: `mx.${DOMAIN}`, type: 'A', data: '192.0.2.10' },
];
/** Probes stay fresh for twice this. */
const INTERVAL_MS = 6000;

let dns: TestDnsServer;
let service: TestService;
let mcp: Client;
beforeAll(async () => {
  dns = await startTestDnsServer({ records });
  service = await startTestService({
    env: {
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '1',
      DNSBL_LIVENESS_INTERVAL_MS: String(INTERVAL_MS),
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
      REGISTRATION_TIMEOUT_MS: '300',
    },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
  });
  mcp = new Client({ name: 'test', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.publicUrl}/mcp`)));
});
afterAll(async () => {
  await mcp?.close();
  await service?.close();
  await dns?.close();
});

const isTestPoint = (name: string) =>
  /^(2|1)\.0\.0\.127\./.test(name) || DNSBL_LISTS.some((l) => l.kind === 'domain' && new RegExp(`^(${l.test_domain ?? 'test'}|invalid)\\.`).test(name));
const onBarracuda = (name: string) => name.endsWith('.b.barracudacentral.org');

interface DoorCall {
  readonly door: 'rest' | 'graphql' | 'mcp';
  readonly answer: any;
  /** The questions the DNS server received during the call. */
  readonly asked: readonly string[];
}

/** One check through each door in turn, each answer with the questions its request asked. */
async function throughEachDoor(operationId: string, args: Record<string, string>): Promise<DoorCall[]> {
  const row = publicCheckRows.find((r) => r.name === operationId)!;
  const calls: DoorCall[] = [];
  const measure = async (door: DoorCall['door'], run: () => Promise<any>) => {
    const before = dns.questions.length;
    const answer = await run();
    calls.push({ door, answer, asked: dns.questions.slice(before).map((q) => q.name) });
  };
  await measure('rest', async () => {
    const response = await service.pub(`${row.path}?${new URLSearchParams(args)}`);
    expect(response.status).toBe(200);
    return response.json();
  });
  await measure('graphql', async () => {
    const response = await service.pub('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: loadDocument(row.document).source, variables: args }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    return rowAnswer(schema, row, body.data);
  });
  await measure('mcp', async () => {
    const tool = await mcp.callTool({ name: operationId, arguments: args });
    expect(tool.isError).toBeFalsy();
    return JSON.parse((tool.content as { text: string }[])[0]!.text);
  });
  return calls;
}

/** Barracuda's entry is no verdict: listed null, alive false, the reason naming its test point; the finding says so. */
function expectBarracudaReportedDead(answer: any, lists: readonly any[], fromProbe: boolean): void {
  const barracuda = lists.filter((l) => l.list_id === 'barracuda');
  expect(barracuda.length).toBeGreaterThan(0);
  for (const entry of barracuda) {
    expect(entry).toMatchObject({ listed: null, alive: false, reason: expect.stringMatching(/does not list its RFC 5782 test point 127\.0\.0\.2/) });
    // From the probe, the reason says when it was found; asked in the request, it does not.
    expect(/\(background probe of \d{4}-\d\d-\d\dT[^)]+\)$/.test(entry.reason)).toBe(fromProbe);
  }
  expect(answer.findings).toContainEqual(expect.objectContaining({ code: 'lists_failed_test_point', message: expect.stringMatching(/Barracuda/) }));
  expect(lists.filter((l) => l.list_id !== 'barracuda').every((l) => l.listed === false && l.alive === true)).toBe(true);
}

describe('blocklist liveness on every door', () => {
  let withoutProbe: Record<string, DoorCall[]>;

  it('without a probe, each request asks every list’s two test points and reports the dead list', async () => {
    const grade = await throughEachDoor('check_deliverability', { domain: DOMAIN });
    const listing = await throughEachDoor('check_blacklist', { input: DOMAIN });
    withoutProbe = { grade, listing };
    for (const call of [...grade, ...listing]) {
      expect(call.asked.filter(isTestPoint)).toHaveLength(2 * DNSBL_LISTS.length);
      expect(call.answer).toEqual(grade.includes(call) ? grade[0]!.answer : listing[0]!.answer);
    }
    expect(grade[0]!.answer.grade).toBe('A');
    expectBarracudaReportedDead(listing[0]!.answer, listing[0]!.answer.lists, false);
    // The grade's blocklist part counts only the lists that answered (docs/grade.md).
    expect(grade[0]!.answer.checks.blacklists.status).toBe('warn');
  });

  it('with a fresh probe, no request asks a test point nor the dead list, the grade asks at most 110 questions, and the dead list is still reported', async () => {
    await probeDnsblLiveness({}, service.jobs.environment, { id: 'door-test', attempt: 1 });
    const grade = await throughEachDoor('check_deliverability', { domain: DOMAIN });
    const listing = await throughEachDoor('check_blacklist', { input: DOMAIN });
    for (const call of [...grade, ...listing]) {
      expect(call.asked.filter(isTestPoint)).toEqual([]);
      expect(call.asked.filter(onBarracuda)).toEqual([]);
      expect(call.answer).toEqual(grade.includes(call) ? grade[0]!.answer : listing[0]!.answer);
    }
    for (const [i, call] of grade.entries()) {
      // Two test points per list, and Barracuda's target question, are no longer asked.
      expect(withoutProbe.grade![i]!.asked.length - call.asked.length).toBe(2 * DNSBL_LISTS.length + 1);
      expect(call.asked.length).toBeLessThanOrEqual(110);
    }
    expect(grade[0]!.answer.grade).toBe(withoutProbe.grade![0]!.answer.grade);
    expect(grade[0]!.answer.score).toBe(withoutProbe.grade![0]!.answer.score);
    expectBarracudaReportedDead(listing[0]!.answer, listing[0]!.answer.lists, true);
    expect(listing[0]!.answer.listed_count).toBe(withoutProbe.listing![0]!.answer.listed_count);
    expect(listing[0]!.answer.checked_count).toBe(withoutProbe.listing![0]!.answer.checked_count);
  });

  it('check-uribl too: no test point asked while the probe is fresh', async () => {
    const calls = await throughEachDoor('check_uribl', { domains: DOMAIN });
    for (const call of calls) {
      expect(call.asked.filter(isTestPoint)).toEqual([]);
      expect(call.answer.results[0]).toMatchObject({ domain: DOMAIN, listed: false });
    }
  });

  it('once the probe is older than twice the interval, each request asks the test points again', async () => {
    // The probe is made older than twice the interval instead of waiting that long: in the table the
    // instances share and in this instance's board, whose probes are the ones the job just remembered.
    const stale = Date.now() - 2 * INTERVAL_MS - 1000;
    const db = service.services.db;
    const rows = await db.selectFrom('dnsbl_liveness').select(['list_id', 'zone_digest']).execute();
    expect(rows).toHaveLength(DNSBL_LISTS.length);
    for (const row of rows) (await service.services.dnsblLiveness.find(row.list_id, row.zone_digest))?.probed_at.setTime(stale);
    await db
      .updateTable('dnsbl_liveness')
      .set({ probed_at: new Date(stale) })
      .execute();
    const listing = await throughEachDoor('check_blacklist', { input: DOMAIN });
    for (const call of listing) expect(call.asked.filter(isTestPoint)).toHaveLength(2 * DNSBL_LISTS.length);
    expectBarracudaReportedDead(listing[0]!.answer, listing[0]!.answer.lists, false);
  });
});
