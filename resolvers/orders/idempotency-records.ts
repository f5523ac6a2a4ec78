import {
  deleteIdempotencyClaim,
  findIdempotencyRecord,
  insertIdempotencyRecord,
  setIdempotencyClaimLock,
  takeOverIdempotencyClaim,
} from '../../db/idempotency-records.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DomainError, input, sentence } from '../domain-error.js';
import { IdempotencyKeyReusedError } from '../../clients/payments/payment-errors.js';

/** SPEC 4.2 Idempotency rule 1. */
const KEY = /^[A-Za-z0-9.:_-]{8,64}$/;

/**
 * How long one placement may hold its key before a retry may take over (crash recovery): longer than
 * the slowest placement (the processor's 20 s time cap plus the checks). IDEMPOTENCY_CLAIM_MS lets a
 * test shorten it; operators have no reason to change it.
 */
export const DEFAULT_CLAIM_MS = 120_000;

/**
 * A missing or malformed key is input not in the expected shape, refused like any other such field
 * on the account API (one class, operations/describe-input-error.ts; SPEC 7). Each door names the
 * key as it takes it (a REST header, an MCP argument, a GraphQL argument): the `idempotency_key` term.
 */
export function checkIdempotencyKey(key: string | null | undefined, what: 'order' | 'reinstatement' = 'order'): string {
  if (key === undefined || key === null || key === '') {
    throw new DomainError(
      'idempotency_key_missing',
      what === 'order'
        ? sentence`Send ${input('idempotency_key')}: 8 to 64 letters, digits, ".", "-", ":" or "_", new for each new order (a UUID works). A retry with the same key never places a second order.`
        : sentence`Send ${input('idempotency_key')}: 8 to 64 letters, digits, ".", "-", ":" or "_", new for each reinstatement you mean (a UUID works). A retry with the same key never charges twice.`,
    );
  }
  if (!KEY.test(key)) {
    throw new DomainError(
      'idempotency_key_malformed',
      sentence`${input('idempotency_key', true)} must be 8 to 64 characters, each a letter, digit, ".", "-", ":" or "_"; "${key.slice(0, 70)}" is not. A UUID works.`,
    );
  }
  return key;
}

export type Claim =
  | { readonly kind: 'claimed' }
  /** An earlier attempt with this key stopped after claiming (a crash): take over and recover. */
  | { readonly kind: 'recovering' }
  | { readonly kind: 'done'; readonly response: string }
  | { readonly kind: 'busy' };

/**
 * Claims (account, key) for one placement. The primary key makes concurrent claims safe: exactly one
 * insert wins; the others see the row and replay it once done. The same key with another body is a
 * 409 (documented in docs/ordering.md).
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  accountId: number,
  key: string,
  requestHash: string,
  now: Date,
  claimMs = DEFAULT_CLAIM_MS,
): Promise<Claim> {
  const lockedUntil = new Date(now.getTime() + claimMs);
  const inserted = await insertIdempotencyRecord(db, {
    account_id: accountId,
    key,
    request_hash: requestHash,
    state: 'in_progress',
    locked_until: lockedUntil,
  });
  if (inserted) return { kind: 'claimed' };
  return readClaim(db, accountId, key, requestHash, now, claimMs);
}

export async function readClaim(
  db: Kysely<Database>,
  accountId: number,
  key: string,
  requestHash: string,
  now: Date,
  claimMs = DEFAULT_CLAIM_MS,
): Promise<Claim> {
  const row = await findIdempotencyRecord(db, accountId, key);
  if (!row) return claimIdempotencyKey(db, accountId, key, requestHash, now, claimMs);
  if (row.request_hash !== requestHash) throw new IdempotencyKeyReusedError();
  if (row.state === 'done' && row.response !== null) return { kind: 'done', response: row.response };
  if (row.locked_until !== null && new Date(row.locked_until) > now) return { kind: 'busy' };
  // The holder stopped without finishing: one retry takes over (compare-and-set on the lock).
  const taken = await takeOverIdempotencyClaim(db, accountId, key, row.locked_until, new Date(now.getTime() + claimMs));
  return taken ? { kind: 'recovering' } : { kind: 'busy' };
}

/** Frees the key after a refusal that charged nothing, so the same key can be used again. */
export async function releaseIdempotencyKey(db: Kysely<Database>, accountId: number, key: string): Promise<void> {
  await deleteIdempotencyClaim(db, accountId, key);
}

/**
 * After a failure whose outcome is unknown (the order may or may not be charged, the record not
 * written): keep the claim but let the next retry take over at once, to recover via the processor.
 */
export async function expireIdempotencyClaim(db: Kysely<Database>, accountId: number, key: string): Promise<void> {
  await setIdempotencyClaimLock(db, accountId, key, new Date(0));
}
