import type { DnsAnswer, DnsRecordType, DnssecStatus, ExtendedDnsError } from '../../../clients/dns/dns-types.js';
import { describeExtendedDnsError } from '../../../clients/dns/extended-dns-errors.js';
import { bareName } from '../../../clients/dns/answer-from-reply.js';

/**
 * A check's DNSSEC status: the weakest status among the DNS answers the check used (docs/dnssec.md),
 * with the resolver's reason and the answer that decided it.
 */
export interface CheckDnssec {
  readonly status: DnssecStatus;
  /** A sentence: the resolver's reason (its Extended DNS Error in words), or what the answers showed. */
  readonly reason: string;
  /** Distinct questions (name, type) the check asked through the resolver. */
  readonly answers: number;
  /** Of those, the answers the resolver validated (AD set). */
  readonly validated: number;
  /** The question whose answer decided the status; null when every answer was secure. */
  readonly name: string | null;
  readonly type: DnsRecordType | null;
  /** That answer's Extended DNS Error (RFC 8914), as the resolver first gave it; null when it carried none. */
  readonly extendedDnsError: ExtendedDnsError | null;
}

/** Weakest last: one bogus answer makes the check bogus, one unknown makes it indeterminate, one unsigned insecure. */
const RANK: Readonly<Record<DnssecStatus, number>> = { secure: 0, insecure: 1, indeterminate: 2, bogus: 3 };

/** An answer without `dnssec` got no reply to read (timeout, budget, cancelled, unusable reply): its status is unknown. */
function statusOf(answer: DnsAnswer): DnssecStatus {
  return answer.dnssec ?? 'indeterminate';
}

const answersWord = (n: number): string => (n === 1 ? 'the one DNS answer' : `all ${n} DNS answers`);

function reasonOf(status: DnssecStatus, decider: DnsAnswer, count: number, total: number, validated: number): string {
  const question = `${decider.type} ${decider.name}`;
  switch (status) {
    case 'secure':
      return `The resolver validated ${answersWord(total)} this check used (AD set on each).`;
    case 'insecure':
      return (
        `${total - validated} of the ${total} DNS answers this check used came without AD, so they were not validated ` +
        `(first: ${question}): the zone is not signed, or the resolver in DNS_SERVERS does not validate DNSSEC.`
      );
    case 'bogus': {
      const why = decider.ede ? describeExtendedDnsError(decider.ede) : 'the resolver said the data is bogus';
      const others = count > 1 ? ` ${count} of the ${total} answers failed validation.` : '';
      return `The resolver failed DNSSEC validation of ${question}: ${why}.${others}`;
    }
    case 'indeterminate': {
      const why = decider.ok ? "the resolver's reply did not say" : decider.detail;
      const others = count > 1 ? ` ${count} of the ${total} answers are so.` : '';
      return `The DNSSEC status of ${question} is unknown: ${why}.${others}`;
    }
  }
}

export interface DnssecTally {
  /**
   * Notes a question when the check asks it and its answer when it comes, and hands the answer on.
   * Answers are weighed in the order the check asked (A before AAAA when both are asked at once),
   * not the order they arrived, so the same check names the same deciding answer on every run.
   * A question asked again counts once.
   */
  track<T extends DnsRecordType>(name: string, type: T, answer: Promise<DnsAnswer<T>>): Promise<DnsAnswer<T>>;
  /** The check's status so far over the answers that have come; null when none has. */
  verdict(): CheckDnssec | null;
}

/** One per check run (resolvers/limits/run-bounded-check.ts), over the answers of its recursive lookups. */
export function createDnssecTally(): DnssecTally {
  // Insertion order is the order asked; a question still in flight holds null.
  const asked = new Map<string, DnsAnswer | null>();
  return {
    async track(name, type, pending) {
      const key = `${bareName(name)}|${type}`;
      const first = !asked.has(key);
      if (first) asked.set(key, null);
      const answer = await pending;
      if (first) asked.set(key, answer);
      return answer;
    },
    verdict() {
      const seen = [...asked.values()].filter((answer): answer is DnsAnswer => answer !== null);
      if (seen.length === 0) return null;
      let decider: DnsAnswer | undefined;
      let count = 0;
      let validated = 0;
      for (const answer of seen) {
        const status = statusOf(answer);
        if (status === 'secure') validated += 1;
        if (decider === undefined || RANK[status] > RANK[statusOf(decider)]) {
          decider = answer;
          count = 1;
        } else if (RANK[status] === RANK[statusOf(decider)]) count += 1;
      }
      if (decider === undefined) return null;
      const status = statusOf(decider);
      const secure = status === 'secure';
      return {
        status,
        reason: reasonOf(status, decider, count, seen.length, validated),
        answers: seen.length,
        validated,
        name: secure ? null : decider.name,
        type: secure ? null : decider.type,
        extendedDnsError: secure ? null : (decider.ede ?? null),
      };
    },
  };
}
