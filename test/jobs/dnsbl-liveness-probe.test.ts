import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDnsblLiveness } from '../../db/dnsbl-liveness.js';
import { probeDnsblLiveness } from '../../jobs/probe-dnsbl-liveness.js';
import { DNSBL_LISTS } from '../../resolvers/checks/blacklist/dnsbl-lists.js';
import { createDnsblLivenessBoard } from '../../resolvers/checks/blacklist/dnsbl-liveness-board.js';
import { zoneDigest } from '../../resolvers/checks/blacklist/query-dnsbl.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { dnsblTestPoints } from '../support/dnsbl-test-points.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from './webhook-receiver.js';

/**
 * The background probe of the blocklists' RFC 5782 test points: queued when the jobs start, it asks
 * every list's two test points once and writes one row per list, which every instance reads; run
 * again within half the interval it asks nothing.
 */
let dns: TestDnsServer;
let service: TestService;
const INTERVAL_MS = 60_000;
/** Before the service (and so its jobs) started: the probe's time is after it. */
let beforeStart: number;

beforeAll(async () => {
  beforeStart = Date.now();
  // Barracuda's zone is gone (its test point is NXDOMAIN); SEM URI's test point never answers.
  dns = await startTestDnsServer({ records: dnsblTestPoints(undefined, ['barracuda']), behaviours: { 'test.uribl.spameatingmonkey.net': 'timeout' } });
  service = await startTestService({
    env: {
      JOBS: 'on',
      JOBS_POLL_INTERVAL_MS: '50',
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '1',
      DNSBL_LIVENESS_INTERVAL_MS: String(INTERVAL_MS),
    },
  });
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

const testPointQuestions = () => dns.questions.filter((q) => DNSBL_LISTS.some((l) => q.name.endsWith(`.${l.zone}`)));

describe('the blocklist liveness probe', () => {
  it('runs when the jobs start: one row per list, each test point asked once, dead and unanswered lists as such', async () => {
    const rows = await waitFor('the first probe', async () => {
      const found = await findDnsblLiveness(service.services.db);
      return found.length === DNSBL_LISTS.length && found;
    });
    expect(testPointQuestions()).toHaveLength(2 * DNSBL_LISTS.length);
    const byList = new Map(rows.map((r) => [r.list_id, r]));
    expect(byList.get('barracuda')).toMatchObject({
      alive: false,
      zone: 'b.barracudacentral.org',
      reason: expect.stringMatching(/does not list its RFC 5782 test point 127\.0\.0\.2/),
    });
    expect(byList.get('sem_uri')).toMatchObject({ alive: null, reason: expect.stringMatching(/Could not check that SEM URI is alive/) });
    expect(rows.filter((r) => r.alive === true)).toHaveLength(DNSBL_LISTS.length - 2);
    const spamcop = byList.get('spamcop')!;
    expect(spamcop.zone_digest).toBe(zoneDigest('bl.spamcop.net'));
    // This run's probe, not an old row: made after the service started, and not in the future.
    expect(new Date(spamcop.probed_at).getTime()).toBeGreaterThanOrEqual(beforeStart);
    expect(new Date(spamcop.probed_at).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('this instance uses its probe at once; another instance sharing the database reads it', async () => {
    expect(await service.services.dnsblLiveness.find('spamcop', zoneDigest('bl.spamcop.net'))).toMatchObject({ alive: true });
    const other = createDnsblLivenessBoard({ read: () => findDnsblLiveness(service.services.db) }, { intervalMs: INTERVAL_MS });
    expect(await other.find('barracuda', zoneDigest('b.barracudacentral.org'))).toMatchObject({ alive: false });
    expect(await other.find('spamcop', zoneDigest('bl.spamcop.net'))).toMatchObject({ alive: true });
    // Inconclusive: a request asks SEM URI's test points itself.
    expect(await other.find('sem_uri', zoneDigest('uribl.spameatingmonkey.net'))).toBeNull();
  });

  it('run again within half the interval (another instance just probed), it asks nothing and writes nothing', async () => {
    const before = testPointQuestions().length;
    const [row] = await findDnsblLiveness(service.services.db);
    await probeDnsblLiveness({}, service.jobs.environment, { id: 'again', attempt: 1 });
    expect(testPointQuestions()).toHaveLength(before);
    const after = await findDnsblLiveness(service.services.db);
    expect(after.find((r) => r.list_id === row!.list_id)!.probed_at).toEqual(row!.probed_at);
  });

  it('once half the interval has passed it probes again and writes the new time over the old', async () => {
    const before = testPointQuestions().length;
    const old = new Date(Date.now() - INTERVAL_MS);
    await service.services.db.updateTable('dnsbl_liveness').set({ probed_at: old }).execute();
    await probeDnsblLiveness({}, service.jobs.environment, { id: 'later', attempt: 1 });
    expect(testPointQuestions().length - before).toBe(2 * DNSBL_LISTS.length);
    const rows = await findDnsblLiveness(service.services.db);
    expect(rows).toHaveLength(DNSBL_LISTS.length);
    expect(rows.every((r) => new Date(r.probed_at).getTime() > old.getTime())).toBe(true);
  });
});
