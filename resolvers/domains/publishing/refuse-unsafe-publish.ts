import { DomainError } from '../../domain-error.js';
import type { WantedRecordWithStatus } from '../setup/setup-record.js';

/**
 * The records of a setup an apply may hand to the publisher, or the refusal that stops the whole
 * apply before anything is read from or written to the customer's zone:
 *
 * 1. No write from an unknown read: any required record whose lookup failed (timeout, SERVFAIL,
 *    REFUSED, DNSSEC bogus, a failed lookup anywhere in the SPF tree) refuses with 503
 *    `dns_lookup_failed`, naming each failed lookup. A failed read says nothing about what the zone
 *    holds, and publishing over it could replace a customer's record with our default.
 * 2. A record whose safe merge does not exist (a merge past 10 SPF lookups, SPF records that cannot
 *    be combined, two DMARC records, an invalid DMARC) refuses with its own 409.
 * 3. The forwarding A record is only ever the configured forwarding address.
 *
 * Verified records are never passed on, nor `delegated` ones (a hosted DMARC policy, changed where
 * it is hosted).
 */
export function publishableRecords(records: readonly WantedRecordWithStatus[], forwardTarget: string): WantedRecordWithStatus[] {
  const pending = records.filter((r) => r.required && r.status !== 'verified' && r.status !== 'delegated');
  const unknown = pending.filter((r) => r.status === 'unknown');
  if (unknown.length > 0)
    throw new DomainError(
      'dns_lookup_failed',
      `Nothing was published: ${unknown.map((r) => `${r.purpose.toUpperCase()} (${r.type} ${r.name}): ${r.detail}`).join(' ')} A record that could not be read is never written over; apply again once the lookup succeeds, and if it keeps failing check the domain's name servers (the check-nameservers check) and its DNSSEC.`,
    );
  const refused = pending.find((r) => r.refusal !== undefined);
  if (refused?.refusal)
    throw new DomainError(
      refused.refusal.code,
      `The ${refused.purpose.toUpperCase()} record of ${refused.name} is not published for you: ${refused.refusal.detail} Nothing was changed.`,
    );
  const stray = pending.find((r) => r.purpose === 'forwarding' && r.value !== forwardTarget);
  if (stray) throw new Error(`The forwarding record of ${stray.name} points at ${stray.value}, not FORWARD_TARGET; it is never published.`);
  return pending;
}
