import { deleteDomainReservations, deleteExpiredDomainReservations, holdDomainReservations } from '../../db/domain-reservations.js';
import { listDomainsNamed } from '../../db/domains.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DomainError } from '../domain-error.js';
import { groupProblems, type OrderIssue } from './order-problems.js';

/**
 * How long a placement holds its domains without finishing: past the idempotency lease (a crashed
 * placement's retry renews the hold) and any processor call.
 */
const HOLD_MS = 15 * 60_000;

/**
 * Holds the order's domains for this placement before the card is charged, so two placements of one
 * domain (two accounts, or two keys) cannot both charge: the loser is refused with nothing charged.
 * A retry with the same Idempotency-Key renews its own hold. Holds that lapsed are taken over.
 */
export async function reserveDomains(db: Kysely<Database>, domains: readonly string[], accountId: number, key: string, now: Date): Promise<void> {
  if (domains.length === 0) return;
  const expiresAt = new Date(now.getTime() + HOLD_MS);
  await db.transaction().execute(async (trx) => {
    await deleteExpiredDomainReservations(trx, domains, now);
    // Sorted, so two placements holding overlapping domains take their row locks in one order (no deadlock).
    const held = await holdDomainReservations(trx, domains, accountId, key, expiresAt);
    const mine = new Set(held.map((h) => h.domain));
    // A placement that finished while this one was being checked has its domains on an order now
    // (and its holds gone): read them inside this transaction, after taking the holds.
    const placed = await listDomainsNamed(trx, domains);
    const onOrder = new Set(placed.map((p) => p.domain));
    const issues = new Map<number, OrderIssue[]>();
    domains.forEach((domain, i) => {
      if (onOrder.has(domain)) {
        issues.set(i, [
          {
            severity: 'error',
            code: 'domain_on_another_order',
            field: `domains[${i}].domain`,
            message: `${domain} was placed on an order a moment ago; a domain can be on one order only. Nothing was charged.`,
          },
        ]);
      } else if (!mine.has(domain)) {
        issues.set(i, [
          {
            severity: 'error',
            code: 'domain_being_ordered',
            field: `domains[${i}].domain`,
            message: `${domain} is being ordered by another placement right now; nothing was charged. If that was yours, retry it with its own Idempotency-Key.`,
          },
        ]);
      }
    });
    if (issues.size === 0) return;
    // Throwing rolls back the holds this call just made.
    throw new DomainError(
      'order_problems',
      `The order cannot be placed as sent: ${issues.size} domain${issues.size === 1 ? ' is' : 's are'} already on an order or being ordered, listed in "problems"; nothing was charged.`,
      { problems: groupProblems(domains, issues, () => true) },
    );
  });
}

/** Lets the domains go when the placement charged nothing, or once they are on its recorded order. */
export async function releaseDomains(db: Kysely<Database>, accountId: number, key: string): Promise<void> {
  await deleteDomainReservations(db, accountId, key);
}
