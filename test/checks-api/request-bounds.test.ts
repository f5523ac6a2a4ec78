import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The bounds on one HTTP request that runs checks (docs/checks.md, "Limits on one request"), through
 * the real doors: check units and bulk items summed over aliases, batched operations and MCP messages;
 * one DNS question budget for the whole request; an answer-size cap.
 */
const quiet = {
  RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
  WHOIS_SERVER: '127.0.0.1:9',
  REGISTRATION_TIMEOUT_MS: '300',
  DNS_TIMEOUT_MS: '500',
  DNS_TRIES: '1',
};
let dns: TestDnsServer;
/** Default limits. */
let service: TestService;
/** A 40-question budget and a 100 KB answer cap, to reach them with small requests. */
let tight: TestService;
beforeAll(async () => {
  dns = await startTestDnsServer({ records: fixtureZone });
  const common = { googleTenancy: { probe: async () => 'unknown' as const }, rateLimits: { public: 100_000 } };
  // The 5,000-address request asks 2,500 names of the in-process DNS server at once, in the same
  // process as the service: its subject is the budget, not the timeout, so a loaded event loop is
  // given 3 s per answer rather than 500 ms.
  service = await startTestService({ ...common, env: { ...quiet, DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '3000' } });
  tight = await startTestService({ ...common, env: { ...quiet, DNS_SERVERS: dns.server, CHECKS_DNS_BUDGET: '40', CHECKS_MAX_ANSWER_BYTES: '100000' } });
});
afterAll(async () => {
  await service?.close();
  await tight?.close();
  await dns?.close();
});

async function postGraphql(on: TestService, body: unknown) {
  const response = await on.pub('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** Questions the test DNS server receives while `work` runs. */
async function questionsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = dns.questions.length;
  await work();
  return dns.questions.length - before;
}

/** What every check answers, selected on any check field. */
const C = '{ ... on CheckAnswer { status summary findings { severity code message } } }';

const addresses = (n: number, domain: (i: number) => string) => Array.from({ length: n }, (_, i) => `user${i}@${domain(i)}`);

describe('check units per request', () => {
  it('40 aliases of check-spf are refused before any question, with a sentence and a code, on both listeners', async () => {
    const query = `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: checkSpf(domain: "good.test") ${C}`).join(' ')} }`;
    let answer: Awaited<ReturnType<typeof postGraphql>> | undefined;
    const asked = await questionsDuring(async () => {
      answer = await postGraphql(service, { query });
    });
    expect(asked).toBe(0);
    expect(answer!.status).toBe(400);
    const error = answer!.body.errors[0];
    expect(error.extensions.code).toBe('too_many_checks');
    expect(error.extensions.detail).toMatch(/at most 20/);
    expect(answer!.body.data).toBeUndefined();

    const onApi = await service.api('/graphql', {
      method: 'POST',
      key: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(onApi.status).toBe(400);
    expect((await onApi.json()).errors[0].extensions.code).toBe('too_many_checks');
  });

  it('fragments count too; the checks page (the grade and ten checks) fits', async () => {
    const spread = await postGraphql(service, {
      query: `{ ...F ...F2 } fragment F on Query { ${Array.from({ length: 12 }, (_, i) => `a${i}: checkDmarc(domain: "good.test") ${C}`).join(' ')} } fragment F2 on Query { b: checkDeliverability(domain: "good.test") ${C} d: checkDkim(domain: "good.test") ${C} e: checkBlacklist(input: "good.test") ${C} }`,
    });
    expect(spread.status).toBe(400);
    expect(spread.body.errors[0].extensions.code).toBe('too_many_checks');

    const page = `query ($d: String!) { grade: checkDeliverability(domain: $d) ${C} spf: checkSpf(domain: $d) ${C} dkim: checkDkim(domain: $d) ${C} dmarc: checkDmarc(domain: $d) ${C} mx: checkDns(domain: $d, type: MX) ${C} bl: checkBlacklist(input: $d) ${C} exp: checkDomainExpiry(domain: $d) ${C} sts: checkMtaSts(domain: $d) ${C} bimi: checkBimi(domain: $d) ${C} ns: checkNameservers(domains: [$d]) ${C} p: checkProviderDomain(domain: $d) ${C} }`;
    const answer = await postGraphql(service, { query: page, variables: { d: 'good.test' } });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.grade.status).not.toBe('error');
  });

  it('batched operations share the units: the operation that passes them is refused, the others answer', async () => {
    const op = { query: `{ a: checkDeliverability(domain: "good.test") ${C} b: checkDeliverability(domain: "bad.test") ${C} }` };
    const answer = await postGraphql(service, [op, op, op]);
    expect(answer.body).toHaveLength(3);
    expect(answer.body[0].errors).toBeUndefined();
    expect(answer.body[1].errors).toBeUndefined();
    // Check fields are non-null: a refused alias takes its operation's data with it.
    expect(answer.body[2].data).toBeNull();
    const refused = answer.body[2].errors;
    expect(refused[0].extensions.code).toBe('too_many_checks');
    expect(refused[0].message).toMatch(/batched operation/);
  });
});

describe('bulk items per request', () => {
  it('a full 5,000-address verify-email completes within the grown budget', async () => {
    const emails = addresses(5000, (i) => (i % 2 ? `d${i}.nowhere.test` : 'good.test'));
    let body: any;
    const asked = await questionsDuring(async () => {
      const response = await service.pub('/.platform/functions/verify-email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ emails }),
      });
      expect(response.status).toBe(200);
      body = await response.json();
    });
    expect(asked).toBeGreaterThan(2500); // far past the 400-question base budget
    expect(body.results).toHaveLength(5000);
    expect(body.results.filter((r: { reason: string }) => r.reason === 'dns_lookup_failed')).toEqual([]);
    expect(body.findings.map((f: { code: string }) => f.code)).not.toContain('dns_budget_spent');
  });

  it("aliases of a bulk check are summed against one call's limit", async () => {
    const first = addresses(3000, () => 'good.test');
    const second = addresses(3000, (i) => `d${i}.nowhere.test`);
    const answer = await postGraphql(service, {
      query: `query ($a: [String!]!, $b: [String!]!) { a: verifyEmail(emails: $a) ${C} b: verifyEmail(emails: $b) ${C} }`,
      variables: { a: first.join(','), b: second.join(',') },
    });
    expect(answer.body.data).toBeNull();
    const error = answer.body.errors[0];
    expect(error.extensions.code).toBe('too_many_items');
    expect(error.extensions.detail).toMatch(/6000 addresses in all.*at most 5000/);
  });

  it('MCP messages of one POST are summed too', async () => {
    const call = (id: number, emails: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'verify_email', arguments: { emails } } });
    const response = await service.pub('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([call(1, addresses(3000, () => 'good.test').join(',')), call(2, addresses(3000, () => 'bad.test').join(','))]),
    });
    expect(response.status).toBe(200);
    const replies = (await response.json()) as { id: number; result: { isError?: boolean; content: { text: string }[] } }[];
    const byId = new Map(replies.map((r) => [r.id, r.result]));
    const errors = [...byId.values()].filter((r) => r.isError);
    expect(errors).toHaveLength(1);
    const detail = JSON.parse(errors[0]!.content[0]!.text);
    expect(detail.code).toBe('too_many_items');
    expect(detail.detail).toMatch(/MCP message/);
  });
});

describe('one DNS question budget per request', () => {
  it('aliases share it: the check it runs out on says the budget was spent, not that DNS failed', async () => {
    let answer: Awaited<ReturnType<typeof postGraphql>> | undefined;
    const asked = await questionsDuring(async () => {
      answer = await postGraphql(tight, {
        query: `{ dkim: checkDkim(domain: "good.test") ${C} bl: checkBlacklist(input: "good.test") ${C} dkim2: checkDkim(domain: "bad.test") ${C} }`,
      });
    });
    expect(asked).toBeLessThanOrEqual(40);
    const data = answer!.body.data;
    const spent = [data.dkim, data.bl, data.dkim2].filter((a) => a.findings[0]?.code === 'dns_budget_spent');
    expect(spent.length).toBeGreaterThan(0);
    for (const a of spent) {
      expect(a.status).toBe('error');
      expect(a.summary).toMatch(/spent its DNS question budget \(40 questions/);
    }
  });

  it('batched operations and MCP messages of one POST share it as well', async () => {
    const asked = await questionsDuring(async () => {
      const answer = await postGraphql(tight, [{ query: `{ checkDkim(domain: "good.test") ${C} }` }, { query: `{ checkDkim(domain: "bad.test") ${C} }` }]);
      expect(answer.body[1].data.checkDkim.findings[0].code).toBe('dns_budget_spent');
    });
    expect(asked).toBeLessThanOrEqual(40);

    const call = (id: number, domain: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'check_dkim', arguments: { domain } } });
    const viaMcp = await questionsDuring(async () => {
      const response = await tight.pub('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify([call(1, 'good.test'), call(2, 'bad.test')]),
      });
      const replies = (await response.json()) as { result: { content: { text: string }[] } }[];
      const codes = replies.map((r) => JSON.parse(r.result.content[0]!.text).findings[0]?.code);
      expect(codes).toContain('dns_budget_spent');
    });
    expect(viaMcp).toBeLessThanOrEqual(40);
  });
});

describe('answer size cap', () => {
  it('an answer past CHECKS_MAX_ANSWER_BYTES is replaced by a refusal saying so, on REST, /graphql and MCP', async () => {
    const emails = addresses(1000, () => 'good.test').join(',');
    const rest = await tight.pub(`/.platform/functions/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emails }),
    });
    expect(rest.status).toBe(400);
    const body = await rest.json();
    expect(body.code).toBe('answer_too_large');
    expect(body.detail).toMatch(/100000 bytes/);
    expect(JSON.stringify(body).length).toBeLessThan(1000);

    const gql = await postGraphql(tight, { query: `query ($e: [String!]!) { verifyEmail(emails: $e) ${C} }`, variables: { e: emails } });
    expect(gql.body.errors[0].extensions.code).toBe('answer_too_large');

    const mcp = await tight.pub('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'verify_email', arguments: { emails } } }),
    });
    const reply = (await mcp.json()) as { result: { isError: boolean; content: { text: string }[] } };
    expect(reply.result.isError).toBe(true);
    expect(JSON.parse(reply.result.content[0]!.text).code).toBe('answer_too_large');
  });

  it('the cap counts every answer of the request together', async () => {
    const emails = addresses(150, () => 'good.test').join(',');
    const one = await postGraphql(tight, { query: `query ($e: [String!]!) { verifyEmail(emails: $e) ${C} }`, variables: { e: emails } });
    expect(one.body.errors).toBeUndefined();
    const several = await postGraphql(tight, {
      query: `query ($e: [String!]!) { a: verifyEmail(emails: $e) ${C} b: verifyEmail(emails: $e) ${C} c: verifyEmail(emails: $e) ${C} d: verifyEmail(emails: $e) ${C} }`,
      variables: { e: emails },
    });
    const codes = (several.body.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code);
    expect(codes).toContain('answer_too_large');
  });
});
