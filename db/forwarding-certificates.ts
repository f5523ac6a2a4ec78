import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The certificates of forwarded domains (obtained over ACME, served by SNI on FORWARD_TLS_PORT),
 * the ACME account per directory and the HTTP-01 challenges in flight. Private keys are stored
 * sealed (resolvers/secrets/encrypt-secret.ts); sealing and opening happen in the callers.
 */

/**
 * Whether the name is forwarded on an order that is not cancelled: what entitles it to a
 * certificate. A name that no order forwards (forward_to cleared, the domain removed, the order
 * cancelled) has its certificate no longer served, and deleted by the sweep.
 */
function forwardedOnAnOrder(eb: ExpressionBuilder<Database, 'forwarding_certificates'>) {
  return eb.exists(
    eb
      .selectFrom('domains')
      .innerJoin('orders', 'orders.id', 'domains.order_id')
      .select('domains.id')
      .whereRef('domains.domain', '=', 'forwarding_certificates.domain')
      .where('domains.forward_to', 'is not', null)
      .where('orders.status', '<>', 'cancelled'),
  );
}

/** What the listener needs to serve a name: the chain, the sealed key, and when it expires. */
export interface StoredForwardingCertificate {
  readonly domain: string;
  readonly certificate_pem: string;
  readonly private_key_sealed: string;
  readonly not_after: Date;
}

/** The certificate the listener may serve for `domain` at `now`: stored, not expired, and the name still forwarded on an order not cancelled. */
export async function findForwardingCertificate(db: Kysely<Database>, domain: string, now: Date): Promise<StoredForwardingCertificate | undefined> {
  const row = await db
    .selectFrom('forwarding_certificates')
    .select(['domain', 'certificate_pem', 'private_key_sealed', 'not_after'])
    .where('domain', '=', domain)
    .where('certificate_pem', 'is not', null)
    .where('not_after', '>', now)
    .where(forwardedOnAnOrder)
    .executeTakeFirst();
  if (!row || row.certificate_pem === null || row.private_key_sealed === null || row.not_after === null) return undefined;
  return { domain: row.domain, certificate_pem: row.certificate_pem, private_key_sealed: row.private_key_sealed, not_after: new Date(row.not_after) };
}

/**
 * When the certificate the listener may serve for `domain` at `now` was last written (its cache key);
 * undefined without one: none stored, expired, or the name no longer forwarded on an order not cancelled.
 */
export async function forwardingCertificateVersion(db: Kysely<Database>, domain: string, now: Date): Promise<string | undefined> {
  const row = await db
    .selectFrom('forwarding_certificates')
    .select('issued_at')
    .where('domain', '=', domain)
    .where('certificate_pem', 'is not', null)
    .where('not_after', '>', now)
    .where(forwardedOnAnOrder)
    .executeTakeFirst();
  return row?.issued_at ? new Date(row.issued_at).toISOString() : undefined;
}

/** The state the setup's forwarding line reports: not_after once issued, the last failure and its retry. */
export function findForwardingCertificateState(db: Kysely<Database>, domain: string) {
  return db.selectFrom('forwarding_certificates').select(['not_after', 'last_error', 'retry_at', 'issued_at']).where('domain', '=', domain).executeTakeFirst();
}

/** Stores a newly issued certificate, replacing the one before and clearing any failure. */
export async function saveIssuedCertificate(
  db: Kysely<Database>,
  certificate: { domain: string; certificate_pem: string; private_key_sealed: string; not_before: Date; not_after: Date; issued_at: Date },
): Promise<void> {
  const values = { ...certificate, failed_attempts: 0, last_error: null, retry_at: null, updated_at: certificate.issued_at };
  await db
    .insertInto('forwarding_certificates')
    .values(values)
    .onConflict((oc) => oc.column('domain').doUpdateSet(values))
    .execute();
}

/** Records a failed attempt (the certificate held before, if any, stays served) and when to try again. */
export async function recordCertificateFailure(db: Kysely<Database>, domain: string, error: string, retryAt: (failedAttempts: number) => Date): Promise<void> {
  const existing = await db.selectFrom('forwarding_certificates').select('failed_attempts').where('domain', '=', domain).executeTakeFirst();
  const failed = (existing?.failed_attempts ?? 0) + 1;
  const values = { failed_attempts: failed, last_error: error, retry_at: retryAt(failed), updated_at: new Date() };
  await db
    .insertInto('forwarding_certificates')
    .values({ domain, ...values })
    .onConflict((oc) => oc.column('domain').doUpdateSet(values))
    .execute();
}

/**
 * Names of live forwarded domains whose certificate is missing or expires before `renewBy`, and
 * whose last failure's retry time has passed: the sweep queues each. A name on several orders is
 * listed once.
 */
export async function listCertificatesDue(db: Kysely<Database>, now: Date, renewBy: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('domains')
    .leftJoin('forwarding_certificates as c', 'c.domain', 'domains.domain')
    .select('domains.domain')
    .distinct()
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .where('domains.build_state', '=', 'live')
    .where('domains.forward_to', 'is not', null)
    .where('orders.status', '<>', 'cancelled')
    .where((eb) => eb.or([eb('c.not_after', 'is', null), eb('c.not_after', '<', renewBy)]))
    .where((eb) => eb.or([eb('c.retry_at', 'is', null), eb('c.retry_at', '<=', now)]))
    .orderBy('domains.domain')
    .limit(limit)
    .execute();
  return rows.map((r) => r.domain);
}

/** Marks names as queued until `until`, so the next sweep does not queue them again while their jobs run. */
export async function claimCertificateAttempts(db: Kysely<Database>, domains: readonly string[], until: Date): Promise<void> {
  if (domains.length === 0) return;
  await db
    .insertInto('forwarding_certificates')
    .values(domains.map((domain) => ({ domain, retry_at: until })))
    .onConflict((oc) => oc.column('domain').doUpdateSet({ retry_at: until }))
    .execute();
}

/** Whether `domain` is a live forwarded domain on an order not cancelled now (a job queued earlier re-checks before it asks the authority). */
export async function isLiveForwardedDomain(db: Kysely<Database>, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select('domains.id')
    .where('domains.domain', '=', domain)
    .where('domains.build_state', '=', 'live')
    .where('domains.forward_to', 'is not', null)
    .where('orders.status', '<>', 'cancelled')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes the certificates (and the failure records) of names no order forwards any more: forward_to
 * cleared, the domain removed, or its order cancelled. Their keys go with them; a name forwarded again
 * gets a new certificate from the sweep. Answers the names deleted.
 */
export async function deleteCertificatesNoLongerForwarded(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .deleteFrom('forwarding_certificates')
    .where((eb) => eb.not(forwardedOnAnOrder(eb)))
    .returning('domain')
    .execute();
  return rows.map((r) => r.domain);
}

/**
 * The account and DNS connection DNS-01 goes through for `domain`: the connection of the newest
 * journaled apply (setup_applies) of the domain by an account that forwards it live on an order not
 * cancelled, while that connection is not deleted. Undefined: the domain's records were never
 * published through a connection here, so HTTP-01 is used.
 */
export function findDns01Connection(db: Kysely<Database>, domain: string): Promise<{ account_id: number; connection_id: number } | undefined> {
  return db
    .selectFrom('setup_applies as a')
    .innerJoin('dns_connections as c', (join) => join.onRef('c.id', '=', 'a.connection_id').onRef('c.account_id', '=', 'a.account_id'))
    .innerJoin('domains as d', (join) => join.onRef('d.domain', '=', 'a.domain').onRef('d.account_id', '=', 'a.account_id'))
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .select(['a.account_id', 'a.connection_id'])
    .where('a.domain', '=', domain)
    .where('a.kind', '=', 'apply')
    .where('c.deleted_at', 'is', null)
    .where('d.build_state', '=', 'live')
    .where('d.forward_to', 'is not', null)
    .where('o.status', '<>', 'cancelled')
    .orderBy('a.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findAcmeAccount(db: Kysely<Database>, directoryUrl: string) {
  return db.selectFrom('acme_accounts').select(['account_key_sealed', 'account_url']).where('directory_url', '=', directoryUrl).executeTakeFirst();
}

/** Stores the account key unless another job stored one first; the stored one is returned either way. */
export async function insertAcmeAccountOnce(db: Kysely<Database>, directoryUrl: string, accountKeySealed: string) {
  await db
    .insertInto('acme_accounts')
    .values({ directory_url: directoryUrl, account_key_sealed: accountKeySealed })
    .onConflict((oc) => oc.column('directory_url').doNothing())
    .execute();
  return db.selectFrom('acme_accounts').select(['account_key_sealed', 'account_url']).where('directory_url', '=', directoryUrl).executeTakeFirstOrThrow();
}

export async function setAcmeAccountUrl(db: Kysely<Database>, directoryUrl: string, accountUrl: string): Promise<void> {
  await db.updateTable('acme_accounts').set({ account_url: accountUrl }).where('directory_url', '=', directoryUrl).execute();
}

export async function putAcmeChallenge(db: Kysely<Database>, challenge: { token: string; domain: string; key_authorization: string }): Promise<void> {
  await db
    .insertInto('acme_challenges')
    .values(challenge)
    .onConflict((oc) => oc.column('token').doUpdateSet({ domain: challenge.domain, key_authorization: challenge.key_authorization }))
    .execute();
}

/** The key authorization for `token` when it was asked for `domain`; undefined otherwise. */
export async function findAcmeChallenge(db: Kysely<Database>, domain: string, token: string): Promise<string | undefined> {
  const row = await db.selectFrom('acme_challenges').select('key_authorization').where('token', '=', token).where('domain', '=', domain).executeTakeFirst();
  return row?.key_authorization;
}

export async function deleteAcmeChallenge(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('acme_challenges').where('token', '=', token).execute();
}

/** Challenges left by a job that died mid-way; an authority gives up on a challenge long before a day. */
export async function deleteStaleAcmeChallenges(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('acme_challenges').where('created_at', '<', before).execute();
}
