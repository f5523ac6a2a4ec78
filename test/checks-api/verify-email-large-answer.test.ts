import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A keyless verifyEmail with thousands of addresses answers megabytes of JSON, which the /graphql
 * door writes with turns of the event loop in between (server/stringify-in-turns.ts). Through the
 * door, over HTTP: the text is the one yoga's own writer gives the same operation in a batch of one
 * (JSON.stringify), byte for byte.
 */
let dns: TestDnsServer;
let service: TestService;
beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone });
  service = await startTestService({
    googleTenancy: { probe: async () => 'unknown' as const },
    rateLimits: { public: 100_000 },
    env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '3000', DNS_TRIES: '1', RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', WHOIS_SERVER: '127.0.0.1:9' },
  });
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
});

const QUERY = `query ($e: [String!]!) { verifyEmail(emails: $e) { ... on VerifyEmailAnswer { status summary counts { valid invalid unknown } results { email valid reason detail domain mx { exchange preference } role disposable syntaxValid } } } }`;

async function postText(body: unknown): Promise<{ status: number; text: string }> {
  const response = await service.pub('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe('a large verifyEmail answer through /graphql', () => {
  it("is the same text, byte for byte, as yoga's own writer gives the same operation", async () => {
    const emails = Array.from({ length: 3000 }, (_, i) =>
      i % 10 === 9 ? `not an address ${i}` : `person.${i}@${['good.test', 'nomx.test', 'gmail.com'][i % 3]}`,
    );
    const one = await postText({ query: QUERY, variables: { e: emails } });
    expect(one.status).toBe(200);
    expect(one.text.length).toBeGreaterThan(500_000);
    // A batch of one goes through yoga's own result writer, which is JSON.stringify.
    const batch = await postText([{ query: QUERY, variables: { e: emails } }]);
    expect(batch.status).toBe(200);
    expect(`[${one.text}]`).toBe(batch.text);
    expect(JSON.parse(one.text).data.verifyEmail.results).toHaveLength(3000);
  });
});
