import { pathToFileURL } from 'node:url';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../test/support/dns-server.js';
import { startTestService, type TestService } from '../test/support/test-service.js';

/**
 * The bounds on one request (docs/checks.md, "Limits on one request"), measured through the real
 * public listener against the local test DNS server:
 *
 * - DNS questions for one check-spf of a crafted tree (10 includes of 100 `a:` terms each), against
 *   40 aliases of it in one GraphQL document (refused by the check units), the 20 aliases one request
 *   may run, and 40 aliases spread over a batch of 5 operations. Target: at most 2x one check.
 * - Time from the caller hanging up to the last question the server sends (target < 1 s), for a
 *   1,000-domain segment-esp against a DNS server answering in 50 ms.
 */
export interface BoundsFigures {
  readonly one_check_questions: number;
  readonly aliases_40_status: number;
  readonly aliases_40_questions: number;
  readonly aliases_20_questions: number;
  readonly batch_5x8_questions: number;
  /** The worst of the multi-alias forms ÷ one check. */
  readonly aliases_per_one: number;
  readonly hang_up_to_last_question_ms: number;
  readonly questions_after_hang_up: number;
  readonly questions_before_hang_up: number;
}

const INCLUDES = 10;
const A_TERMS = 100;

/** crafted<k>.test: ten includes, each a record of a hundred `a:` terms under the include's name. */
function craftedZone(domains: number): ZoneRecord[] {
  const records: ZoneRecord[] = [];
  for (let k = 0; k < domains; k += 1) {
    const domain = `crafted${k}.test`;
    const includes = Array.from({ length: INCLUDES }, (_, j) => `i${j}.${domain}`);
    records.push({ name: domain, type: 'TXT', data: [`v=spf1 ${includes.map((i) => `include:${i}`).join(' ')} -all`] });
    for (const include of includes) {
      records.push({ name: include, type: 'TXT', data: [`v=spf1 ${Array.from({ length: A_TERMS }, (_, h) => `a:h${h}.${include}`).join(' ')} -all`] });
    }
  }
  return records;
}

async function questionsFor(service: TestService, dns: TestDnsServer, body: unknown): Promise<{ status: number; questions: number }> {
  const before = dns.questions.length;
  const response = await service.pub('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  // A truncated answer's TCP retry is the same question (the budget counts it once): count UDP only.
  return { status: response.status, questions: dns.questions.slice(before).filter((q) => q.transport !== 'tcp').length };
}

const aliases = (n: number, from = 0) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: checkSpf(domain: "crafted${from + i}.test") { __typename }`).join(' ')} }`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none', WHOIS_SERVER: '127.0.0.1:9', REGISTRATION_TIMEOUT_MS: '300' };

async function aliasFigures() {
  const dns = await startTestDnsServer({ records: craftedZone(45) });
  const service = await startTestService({
    env: { ...quiet, DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '1000', LOG_REQUESTS: '0' },
    rateLimits: { public: 100_000 },
  });
  try {
    const one = await questionsFor(service, dns, { query: aliases(1) });
    const forty = await questionsFor(service, dns, { query: aliases(40, 1) });
    const twenty = await questionsFor(service, dns, { query: aliases(20, 1) });
    const batch = await questionsFor(
      service,
      dns,
      Array.from({ length: 5 }, (_, b) => ({
        query: `{ ${Array.from({ length: 8 }, (_, i) => `a${i}: checkSpf(domain: "crafted${1 + b * 8 + i}.test") { __typename }`).join(' ')} }`,
      })),
    );
    return { one, forty, twenty, batch };
  } finally {
    await service.close();
    await dns.close();
  }
}

async function hangUpFigures() {
  const dns = await startTestDnsServer({ records: [], delayMs: 50 });
  const service = await startTestService({
    env: { ...quiet, DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '2000', DNS_TRIES: '1', LOG_REQUESTS: '0' },
    rateLimits: { public: 100_000 },
  });
  try {
    const domains = Array.from({ length: 1000 }, (_, i) => `h${i}.hangup.test`);
    const caller = new AbortController();
    const pending = service
      .pub('/.platform/functions/segment-esp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ domains }),
        signal: caller.signal,
      })
      .catch(() => null);
    await sleep(500);
    const hungUpAt = performance.now();
    const atHangUp = dns.questions.length;
    caller.abort();
    await pending;
    let last = hungUpAt;
    let count = dns.questions.length;
    while (performance.now() - hungUpAt < 2000) {
      await sleep(2);
      if (dns.questions.length !== count) {
        count = dns.questions.length;
        last = performance.now();
      }
    }
    return { hangUpToLast: Math.round(last - hungUpAt), before: atHangUp, after: count - atHangUp };
  } finally {
    await service.close();
    await dns.close();
  }
}

export async function benchBounds(): Promise<BoundsFigures> {
  const { one, forty, twenty, batch } = await aliasFigures();
  const hang = await hangUpFigures();
  const worst = Math.max(forty.questions, twenty.questions, batch.questions);
  return {
    one_check_questions: one.questions,
    aliases_40_status: forty.status,
    aliases_40_questions: forty.questions,
    aliases_20_questions: twenty.questions,
    batch_5x8_questions: batch.questions,
    aliases_per_one: Math.round((worst / Math.max(1, one.questions)) * 100) / 100,
    hang_up_to_last_question_ms: hang.hangUpToLast,
    questions_after_hang_up: hang.after,
    questions_before_hang_up: hang.before,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await benchBounds();
  console.log(JSON.stringify(f, null, 1));
}
