import type { DnsAnswer } from '../../../clients/dns/dns-types.js';

/**
 * How a failed lookup reads in SPF answers. A question the request's budget or cancellation kept
 * off the wire carries its own sentence (what happened and why), which says more than "failed
 * (budget)"; both are temperror-like failures, never a missing record.
 */
export function lookupFailureText(answer: DnsAnswer): string {
  if (answer.ok) return `the ${answer.type} lookup for ${answer.name} succeeded`;
  if (answer.failure === 'budget' || answer.failure === 'cancelled') return answer.detail;
  return `the ${answer.type} lookup for ${answer.name} failed (${answer.failure})`;
}
