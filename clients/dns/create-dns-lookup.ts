import DataLoader from 'dataloader';
import { isIP } from 'node:net';
import type { DirectReply, DnsAnswer, DnsFailureKind, DnsLookup, DnsRecordType } from './dns-types.js';
import { parseDnsServerAddress } from '../../config/dns-server-address.js';
import type { DnsSettings } from '../../config/settings.js';
import type { DnsServerAddress } from '../../config/dns-server-address.js';
import { createConcurrencyLimit } from './concurrency-limit.js';
import { sendDnsQuery } from './send-dns-query.js';
import { isDnssecFailure } from './extended-dns-errors.js';
import { answerFromReply, bareName, referralGlue, referralNameservers } from './answer-from-reply.js';
import { sharedUdpSocketPool } from './udp-socket-pool.js';
import type { UdpSocketPool } from './udp-socket-pool.js';
import { recordDnsQuestion } from '../../observability/metrics.js';
import { unlimitedQuestionBudget, type QuestionBudget } from './question-budget.js';
import { replyCode } from './packet-field.js';

/** What one request brings to its lookup: the question budget it shares, and its cancellation. */
export interface DnsRequestScope {
  readonly budget?: QuestionBudget;
  /** Aborted when the caller hangs up or the request's deadline passes. */
  readonly signal?: AbortSignal;
}

/** The DNS settings (config/settings.ts), with the sockets to use. */
export interface DnsConfig extends Omit<DnsSettings, 'questionsPerSocket' | 'authoritativePort'> {
  /** Questions a UDP socket carries before it is retired (1: a fresh socket per question). Default 100. */
  readonly questionsPerSocket?: number;
  /** The port direct questions to authoritative servers go to: 53, except in tests. */
  readonly authoritativePort?: number;
  /** The UDP sockets to use; the process-wide pool by default (tests and the bench pass their own). */
  readonly pool?: UdpSocketPool;
}

/** The DataLoader key's name: case, surrounding space and the root dot do not make another question. */
export function normaliseQuestionName(name: string): string {
  return bareName(name);
}

/** A name the wire format cannot carry (RFC 1035 2.3.4): empty or over-long labels, over 253 octets. */
function invalidName(name: string): string | null {
  if (name === '') return 'the name is empty';
  if (Buffer.byteLength(name) > 253) return 'the name is longer than 253 octets';
  const labels = name.split('.');
  if (labels.some((l) => l === '')) return 'the name has an empty label';
  if (labels.some((l) => Buffer.byteLength(l) > 63)) return 'a label is longer than 63 octets';
  return null;
}

/** Failures worth asking the next server about; a definite NXDOMAIN or no-data answer is final. */
const RETRYABLE: ReadonlySet<DnsFailureKind> = new Set(['timeout', 'servfail', 'refused', 'malformed', 'not_recursive']);

/**
 * The timeout of one direct question to a name server (delegation health). Servers are asked in
 * parallel, each with this timeout of its own and one try, so a zone whose servers are all lame or
 * silent answers in about this long rather than tries × DNS_TIMEOUT_MS per server.
 */
export const DIRECT_TIMEOUT_MS = 1000;

/**
 * One per request: a DataLoader keyed by lower-cased name and type, so a question asked twice in a
 * request goes on the wire once, and a concurrency cap over the questions in flight. Nothing is
 * shared between requests (the checks are live: SPEC 1.1).
 */
export function createDnsLookup(config: DnsConfig, scope: DnsRequestScope = {}): DnsLookup {
  const budget = scope.budget ?? unlimitedQuestionBudget();
  const signal = scope.signal;
  const servers: DnsServerAddress[] = config.servers.map(parseDnsServerAddress);
  if (servers.length === 0) throw new Error('createDnsLookup needs at least one DNS server.');
  const limit = createConcurrencyLimit(config.concurrency);
  const pool = config.pool ?? sharedUdpSocketPool(config.questionsPerSocket ?? 100);
  let questionsAsked = 0;
  const cancelled = (name: string, type: DnsRecordType) => ({
    ok: false as const,
    name,
    type,
    failure: 'cancelled' as const,
    detail: `${type} ${name} was not looked up: the request was cancelled or ran past its deadline`,
  });
  const spent = (name: string, type: DnsRecordType) => ({
    ok: false as const,
    name,
    type,
    failure: 'budget' as const,
    detail: `${type} ${name} was not looked up: this request has asked its ${budget.limit} DNS questions`,
  });

  async function resolve(key: string): Promise<DnsAnswer> {
    const split = key.lastIndexOf('|');
    const name = key.slice(0, split);
    const type = key.slice(split + 1) as DnsRecordType;
    const bad = invalidName(name);
    if (bad) return { ok: false, name, type, failure: 'malformed', detail: `${name} cannot be looked up: ${bad}` };
    let last: DnsAnswer = { ok: false, name, type, failure: 'timeout', detail: `no answer for ${type} ${name}` };
    // A server that answered without recursion says the same to every try: it is not asked again.
    const notRecursive = new Set<number>();
    let first: DnsAnswer | undefined;
    for (let attempt = 0; attempt < config.tries; attempt += 1) {
      if (signal?.aborted) return cancelled(name, type);
      const index = nextServer(attempt, notRecursive);
      if (index === null) return last;
      const server = servers[index];
      if (server === undefined) return last;
      if (!budget.take()) return spent(name, type);
      questionsAsked += 1;
      recordDnsQuestion('recursive');
      const result = await sendDnsQuery(server, name, type, { timeoutMs: config.timeoutMs, signal, pool });
      if (result.kind === 'cancelled') return cancelled(name, type);
      last =
        result.kind === 'reply'
          ? answerFromReply(name, type, result.packet)
          : { ok: false, name, type, failure: result.kind, detail: `${type} ${name}: ${result.detail}` };
      if (last.ok || !RETRYABLE.has(last.failure)) return last;
      // A validating resolver's SERVFAIL for bogus data says the same on every try, and its retry
      // comes from its cache with the generic Extended DNS Error 6: keep the first, specific one.
      // The same holds for its other DNSSEC verdicts (5 Indeterminate, 1-2 unsupported algorithms).
      if (last.failure === 'servfail' && last.ede && isDnssecFailure(last.ede)) return last;
      if (last.failure === 'not_recursive') notRecursive.add(index);
      first ??= last;
    }
    // Two SERVFAILs: the first one's Extended DNS Error is the resolver's own reason, not a cached copy.
    if (!last.ok && first && !first.ok && first.ede && first.failure === last.failure) return first;
    return last;
  }

  /** The server of this try, in turn, skipping those that do not recurse; null when none is left. */
  function nextServer(attempt: number, skip: ReadonlySet<number>): number | null {
    for (let step = 0; step < servers.length; step += 1) {
      const index = (attempt + step) % servers.length;
      if (!skip.has(index)) return index;
    }
    return null;
  }

  // DataLoader for its per-request cache only: DNS has no batch question, and a batched load would
  // hold every answer back until the slowest in its batch arrived.
  const loader = new DataLoader<string, DnsAnswer>((keys) => Promise.all(keys.map((key) => limit.run(() => resolve(key)))), { batch: false });

  const authoritativePort = config.authoritativePort ?? 53;
  const direct = new Map<string, Promise<DirectReply>>();

  const directTimeoutMs = Math.min(config.timeoutMs, DIRECT_TIMEOUT_MS);

  /** One direct question, RD clear, to one server: one try, with its own short timeout. */
  async function ask<T extends DnsRecordType>(address: string, name: string, type: T): Promise<DirectReply<T>> {
    const family = isIP(address);
    const fail = (failure: DnsFailureKind, detail: string): DirectReply<T> => ({ ok: false, server: address, name, type, failure, detail });
    if (family !== 4 && family !== 6) return fail('malformed', `${address} is not an IP address`);
    const bad = invalidName(name);
    if (bad) return fail('malformed', `${name} cannot be looked up: ${bad}`);
    const server: DnsServerAddress = { host: address, port: authoritativePort, family };
    if (signal?.aborted) return fail('cancelled', cancelled(name, type).detail);
    if (!budget.take()) return fail('budget', spent(name, type).detail);
    questionsAsked += 1;
    recordDnsQuestion('direct');
    const result = await sendDnsQuery(server, name, type, { timeoutMs: directTimeoutMs, signal, pool, recursionDesired: false });
    if (result.kind === 'cancelled') return fail('cancelled', cancelled(name, type).detail);
    if (result.kind !== 'reply') return fail(result.kind, `${address} on ${type} ${name}: ${result.detail}`);
    const packet = result.packet;
    return {
      ok: true,
      server: address,
      name,
      type,
      rcode: replyCode(packet),
      authoritative: packet.flag_aa === true,
      answer: answerFromReply(name, type, packet, { recursionDesired: false }),
      referral: referralNameservers(packet),
      glue: referralGlue(packet),
    };
  }

  return {
    lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
      const key = `${normaliseQuestionName(name)}|${type}`;
      return loader.load(key) as Promise<DnsAnswer<T>>;
    },
    askServer<T extends DnsRecordType>(address: string, name: string, type: T): Promise<DirectReply<T>> {
      const bare = normaliseQuestionName(name);
      const key = `${address}|${bare}|${type}`;
      let reply = direct.get(key);
      if (!reply) {
        reply = limit.run(() => ask(address, bare, type));
        direct.set(key, reply);
      }
      return reply as Promise<DirectReply<T>>;
    },
    get questionsAsked() {
      return questionsAsked;
    },
    budget,
    signal,
  };
}
