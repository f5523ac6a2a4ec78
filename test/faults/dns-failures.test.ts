import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSocket, type Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import dnsPacket from 'dns-packet';
import { publicCheckRows } from '../../operations/public-check-rows.js';
import { operationTable } from '../../operations/operation-table.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { loadDocument } from '../../operations/operation-document.js';
import { rowAnswer } from '../../operations/row-answer.js';
import { schema } from '../../schema/index.js';

/**
 * A resolver that misbehaves for EVERY question: never answers, answers SERVFAIL, or answers bytes
 * that are not a DNS message. test/support/dns-server.ts applies its behaviours per name, and a check
 * asks names we cannot list in advance (26 DKIM selectors, blocklist zones, _mta-sts, _bimi...), so
 * this catch-all does the same three behaviours for any name.
 */
type Misbehaviour = 'timeout' | 'servfail' | 'garbage';
async function startBrokenResolver(behaviour: Misbehaviour): Promise<{ server: string; questions: () => number; close(): Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  let questions = 0;
  socket.on('message', (message, peer) => {
    questions += 1;
    if (behaviour === 'timeout') return;
    if (behaviour === 'garbage') return void socket.send(randomBytes(7), peer.port, peer.address);
    let query;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | 2 /* SERVFAIL */,
      questions: query.questions,
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    questions: () => questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** One input per public check, all under a name only the broken resolver is asked about. */
const inputs: Record<string, Record<string, string>> = {
  check_deliverability: { domain: 'down.test' },
  check_spf: { domain: 'down.test' },
  check_dkim: { domain: 'down.test' },
  check_dmarc: { domain: 'down.test' },
  check_bimi: { domain: 'down.test' },
  check_mta_sts: { domain: 'down.test' },
  check_dns: { domain: 'down.test', type: 'MX' },
  check_blacklist: { input: 'down.test' },
  check_uribl: { domains: 'down.test' },
  check_nameservers: { domains: 'down.test' },
  check_domain_expiry: { domain: 'down.test' },
  check_provider_domain: { domain: 'down.test' },
  check_cname: { host: 'track.down.test' },
  verify_email: { emails: 'alex@down.test' },
  segment_esp: { domains: 'down.test' },
};

/** DNS_TIMEOUT_MS=300 and DNS_TRIES=1: a guard against a hang (the test's timeout is this plus 5 s), not a bound the tests check. */
const BOUND_MS = 5000;
const routed = new Set(operationTable.filter((r) => r.listener === 'public').map((r) => r.name));

/** A check's answer through REST, or through the public /graphql for a row that is not yet a REST route. */
async function answerThroughDoor(
  service: TestService,
  row: (typeof publicCheckRows)[number],
  args: Record<string, string>,
): Promise<{ status: number; errors: unknown; answer: Record<string, any> }> {
  if (routed.has(row.name)) {
    const response = await service.pub(`${row.path}?${new URLSearchParams(args)}`);
    return { status: response.status, errors: undefined, answer: await response.json() };
  }
  const response = await service.pub('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: loadDocument(row.document).source, variables: args }),
  });
  const body = await response.json();
  return { status: response.status, errors: body.errors, answer: body.data ? (rowAnswer(schema, row, body.data) as Record<string, any>) : body };
}

for (const behaviour of ['timeout', 'servfail', 'garbage'] as const) {
  describe(`a DNS resolver that ${behaviour === 'timeout' ? 'never answers' : behaviour === 'servfail' ? 'answers SERVFAIL' : 'answers garbage'}`, () => {
    let resolver: Awaited<ReturnType<typeof startBrokenResolver>>;
    let service: TestService;
    beforeAll(async () => {
      resolver = await startBrokenResolver(behaviour);
      service = await startTestService({
        env: {
          DNS_SERVERS: resolver.server,
          DNS_TIMEOUT_MS: '300',
          DNS_TRIES: '1',
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
      await resolver?.close();
    });

    it('every row of operations/public-check-rows.ts has an input here', () => {
      expect(Object.keys(inputs).sort()).toEqual(publicCheckRows.map((r) => r.name).sort());
    });

    for (const row of publicCheckRows) {
      it(
        `${row.name} answers with status "error" and the reason, each lookup ended by its own failure, not by the request's deadline`,
        async () => {
          const args = inputs[row.name]!;
          const before = resolver.questions();
          const { status, errors, answer } = await answerThroughDoor(service, row, args);
          expect(status).toBe(200);
          expect(errors).toBeUndefined();
          // Not held until CHECKS_DEADLINE_MS: each failed lookup ended the check (no stopwatch: the
          // answer says what ended it; the test's timeout only guards against a hang).
          expect(JSON.stringify(answer)).not.toMatch(/deadline_passed/);
          // Every check but the registry's (RDAP and WHOIS, no DNS) asked the broken resolver.
          expect(resolver.questions() > before || row.name === 'check_domain_expiry', `${row.name} asked the resolver`).toBe(true);
          expect(answer.status).toBe('error');
          const reasons = [answer.summary, ...(answer.findings ?? []).map((f: { message: string }) => f.message)].join(' ');
          // The reason names the failed lookup (or, for the registry check, the unreachable registry),
          // in the summary, a finding, or the per-item reason a bulk check gives (each list, each domain).
          expect(`${reasons} ${JSON.stringify(answer)}`).toMatch(
            /time|timed out|SERVFAIL|server failure|malformed|could not|failed|unreachable|no answer|did not answer|unavailable/i,
          );
          // A failed lookup is never reported as a missing record.
          expect(reasons).not.toMatch(/\bno (SPF|DMARC|DKIM|BIMI|MX) record\b/i);
        },
        BOUND_MS + 5000,
      );
    }
  });
}
