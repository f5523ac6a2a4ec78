import type { DnsAnswer, DnsRecordType, DnssecStatus, ExtendedDnsError } from './dns-types.js';
import { describeExtendedDnsError } from './extended-dns-errors.js';

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
  readonly extended_dns_error: ExtendedDnsError | null;
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
  /** Notes an answer the check used; a question asked again counts once (its first answer). */
  note(answer: DnsAnswer): void;
  /** The check's status so far; null when it used no DNS answer. */
  verdict(): CheckDnssec | null;
}

/** One per check run (resolvers/limits/run-bounded-check.ts), over the answers of its recursive lookups. */
export function createDnssecTally(): DnssecTally {
  const seen = new Map<string, DnsAnswer>();
  return {
    note(answer) {
      const key = `${answer.name}|${answer.type}`;
      if (!seen.has(key)) seen.set(key, answer);
    },
    verdict() {
      if (seen.size === 0) return null;
      let decider: DnsAnswer | undefined;
      let count = 0;
      let validated = 0;
      for (const answer of seen.values()) {
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
        reason: reasonOf(status, decider, count, seen.size, validated),
        answers: seen.size,
        validated,
        name: secure ? null : decider.name,
        type: secure ? null : decider.type,
        extended_dns_error: secure ? null : (decider.ede ?? null),
      };
    },
  };
}
