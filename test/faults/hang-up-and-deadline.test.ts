import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

/**
 * A request's work ends with the request: when the caller hangs up, or when CHECKS_DEADLINE_MS
 * passes, no further DNS question leaves the server. Against a slow DNS server (300 ms per answer)
 * and two questions in flight, a 100-domain segment-esp would otherwise ask for 15 s.
 */
let dns: TestDnsServer;
let service: TestService;
beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone, delayMs: 300 });
  service = await startTestService({
    env: {
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '1',
      DNS_CONCURRENCY: '2',
      CHECKS_DEADLINE_MS: '3000',
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
      WHOIS_SERVER: '127.0.0.1:9',
      REGISTRATION_TIMEOUT_MS: '300',
    },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: 10_000 },
  });
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const domains = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}${i}.slow.test`).join(',');

describe('a caller who hangs up', () => {
  for (const door of ['REST', '/graphql', 'MCP'] as const) {
    it(`stops the server's questions within a second (${door})`, async () => {
      const prefix = `${door.replace(/\W/g, '').toLowerCase()}-hangup`;
      const request: Record<typeof door, () => [string, RequestInit]> = {
        REST: () => [`/.platform/functions/segment-esp?domains=${domains(prefix)}`, {}],
        '/graphql': () => [
          '/graphql',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: `{ segmentEsp(domains: "${domains(prefix)}") { __typename } }` }),
          },
        ],
        MCP: () => [
          '/mcp',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'segment_esp', arguments: { domains: domains(prefix) } } }),
          },
        ],
      };
      const [path, init] = request[door]();
      const caller = new AbortController();
      const pending = service.pub(path, { ...init, signal: caller.signal }).catch(() => null);
      const ours = () => dns.questions.filter((q) => q.name.startsWith(prefix)).length;
      await waitFor('the first questions at the DNS server', () => ours() > 0);
      caller.abort();
      await pending;
      // Time itself is the subject here ("within a second"): these two waits stay fixed.
      await sleep(100); // the server sees the connection close
      const atHangUp = ours();
      await sleep(1000);
      // At most the two questions already in flight when the close arrived.
      expect(ours() - atHangUp).toBeLessThanOrEqual(2);
      expect(ours()).toBeLessThan(20);
    });
  }
});

describe('the deadline', () => {
  it('ends a request at CHECKS_DEADLINE_MS with an answer that says so, and no question after it', async () => {
    // What ended the request is read from the answer (deadline_passed), not from a stopwatch.
    const response = await service.pub(`/.platform/functions/segment-esp?domains=${domains('deadline')}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe('error');
    expect(body.findings[0].code).toBe('deadline_passed');
    expect(body.summary).toMatch(/3000 ms deadline \(CHECKS_DEADLINE_MS\)/);
    const asked = dns.questions.filter((q) => q.name.startsWith('deadline')).length;
    expect(asked).toBeLessThan(30);
    // No question after the deadline: a fixed wait, since nothing marks "the questions that would have come".
    await sleep(700);
    expect(dns.questions.filter((q) => q.name.startsWith('deadline')).length).toBe(asked);
  });

  it('an HTTPS fetch stops on the request signal too', async () => {
    // The fetcher answers `cancelled` at once when its request is already over.
    const { createHttpsFetcher } = await import('../../clients/http/create-https-fetcher.js');
    const controller = new AbortController();
    let looked = false;
    const dnsStub = {
      lookup: () => {
        looked = true;
        return new Promise<never>(() => {});
      },
      questionsAsked: 0,
      signal: controller.signal,
    };
    const fetcher = createHttpsFetcher(dnsStub as never, { allowPrivate: true, httpsPort: 443 });
    // A timeout past the test's own: only the signal can end this fetch in time, and it says `cancelled`.
    const pending = fetcher.get('https://hangs.test/policy', { maxBytes: 1000, timeoutMs: 60_000 });
    await waitFor('the fetcher at its DNS lookup', () => looked);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'cancelled' });
  });
});
