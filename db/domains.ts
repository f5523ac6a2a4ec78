import { sql, type Kysely } from 'kysely';
import type { BuildState } from './status-values.js';
import type { Database, NewDomain } from './schema.js';

/** The account's domain by name (already normalised), or undefined. */
export function findAccountDomain(
  db: Kysely<Database>,
  accountId: number,
  domain: string,
): Promise<{ id: number; domain: string; workspace_id: number | null } | undefined> {
  return db.selectFrom('domains').select(['id', 'domain', 'workspace_id']).where('domain', '=', domain).where('account_id', '=', accountId).executeTakeFirst();
}

export async function setDomainWorkspace(db: Kysely<Database>, domainId: number, workspaceId: number | null): Promise<void> {
  await db.updateTable('domains').set({ workspace_id: workspaceId }).where('id', '=', domainId).execute();
}

/** Files the workspace's domains in no workspace; how many there were. */
export async function unfileWorkspaceDomains(db: Kysely<Database>, accountId: number, workspaceId: number): Promise<number> {
  const result = await db
    .updateTable('domains')
    .set({ workspace_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findOrderDomainByName(db: Kysely<Database>, orderId: number, domain: string): Promise<{ domain: string } | undefined> {
  return db.selectFrom('domains').select('domain').where('order_id', '=', orderId).where('domain', '=', domain).executeTakeFirst();
}

/** Points every domain of the order at `forwardTo`; how many. */
export async function setOrderDomainsForwardTo(db: Kysely<Database>, accountId: number, orderId: number, forwardTo: string | null): Promise<number> {
  const result = await db
    .updateTable('domains')
    .set({ forward_to: forwardTo })
    .where('order_id', '=', orderId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The domain's columns a setup is computed from (resolvers/domains/setup). */
export const SETUP_DOMAIN_COLUMNS = ['id', 'account_id', 'order_id', 'domain', 'forward_to', 'build_state', 'build_reason'] as const;

/** The account's domain by name (already normalised), with what its setup needs. */
export function findSetupDomainByName(db: Kysely<Database>, accountId: number, domain: string) {
  return db
    .selectFrom('domains')
    .select([...SETUP_DOMAIN_COLUMNS, 'mailboxes_created_at'])
    .where('domain', '=', domain)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function findSetupDomainById(db: Kysely<Database>, domainId: number) {
  return db
    .selectFrom('domains')
    .select([...SETUP_DOMAIN_COLUMNS, 'mailboxes_created_at'])
    .where('id', '=', domainId)
    .executeTakeFirst();
}

export async function markMailboxesCreated(db: Kysely<Database>, domainId: number, now: Date): Promise<void> {
  await db.updateTable('domains').set({ mailboxes_created_at: now }).where('id', '=', domainId).execute();
}

/** The domain's setup check count, its row locked (FOR UPDATE) until the transaction ends. */
export async function lockDomainSetupChecks(db: Kysely<Database>, domainId: number): Promise<number | undefined> {
  const row = await db.selectFrom('domains').select('setup_checks').where('id', '=', domainId).forUpdate().executeTakeFirst();
  return row?.setup_checks;
}

/**
 * Records a setup check's outcome if the domain is still in `from` and no later check was recorded
 * (setup_checked_at after `checkedAt`); false when it was not moved.
 */
export async function recordDomainSetupCheck(
  db: Kysely<Database>,
  domainId: number,
  from: BuildState,
  checkedAt: Date,
  set: {
    build_state: BuildState;
    build_reason: string | null;
    build_problems: string;
    setup_next_check_at: Date;
    setup_checks: number;
    built_at?: Date;
  },
): Promise<boolean> {
  const moved = await db
    .updateTable('domains')
    .set({ ...set, setup_checked_at: checkedAt })
    .where('id', '=', domainId)
    .where('build_state', '=', from)
    // A check that began before the last one recorded is stale: its lookups may predate a fix.
    .where((eb) => eb.or([eb('setup_checked_at', 'is', null), eb('setup_checked_at', '<=', checkedAt)]))
    .returning('id')
    .executeTakeFirst();
  return moved !== undefined;
}

export async function findDomainBuildState(db: Kysely<Database>, domainId: number): Promise<string | undefined> {
  const row = await db.selectFrom('domains').select('build_state').where('id', '=', domainId).executeTakeFirst();
  return row?.build_state;
}

export async function findDomainNextSetupCheck(db: Kysely<Database>, domainId: number): Promise<Date | null | undefined> {
  const row = await db.selectFrom('domains').select('setup_next_check_at').where('id', '=', domainId).executeTakeFirst();
  return row?.setup_next_check_at;
}

/** Up to 500 domains in these states whose next setup check is due, the longest due first. */
export async function listDomainsDueSetupCheck(db: Kysely<Database>, states: readonly BuildState[], now: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('domains')
    .select('id')
    .where('build_state', 'in', [...states])
    .where('setup_next_check_at', '<=', now)
    .orderBy('setup_next_check_at')
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

/** How many of the account's domains are filed in no workspace. */
export async function countUnfiledDomains(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('domains')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('account_id', '=', accountId)
    .where('workspace_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's domains by name, with their workspace's name and kept mailbox counts. */
export function listDashboardDomains(db: Kysely<Database>, accountId: number) {
  return (
    db
      .selectFrom('domains')
      .leftJoin('workspaces', 'workspaces.id', 'domains.workspace_id')
      // mailbox_count is kept on the domain by triggers: no count per domain on every read.
      .select([
        'domains.order_id',
        'domains.domain',
        'domains.build_state',
        'domains.forward_to',
        'domains.workspace_id',
        'workspaces.name as workspace_name',
        'domains.mailbox_count',
        'domains.build_reason',
        'domains.build_problems',
      ])
      .where('domains.account_id', '=', accountId)
      .orderBy('domains.domain')
      .execute()
  );
}

/**
 * One page of the account's domains in the dashboard's order: by the order that paid for them,
 * newest order first (ties by order id, descending), then by name; at most `limit`, and with `after`
 * (a domain of the account, by name) only those after it in this order. The order's time is
 * compared in SQL, where it keeps its microseconds. Each row carries its order's fields too.
 */
export function listDashboardDomainsPage(db: Kysely<Database>, accountId: number, page: { readonly limit: number; readonly after: string | null }) {
  let query = db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .innerJoin('plans', 'plans.id', 'orders.plan_id')
    .leftJoin('workspaces', 'workspaces.id', 'domains.workspace_id')
    .select([
      'domains.order_id',
      'domains.domain',
      'domains.build_state',
      'domains.forward_to',
      'domains.workspace_id',
      'workspaces.name as workspace_name',
      'domains.mailbox_count',
      'domains.build_reason',
      'domains.build_problems',
      'orders.subscription_id',
      'orders.reference',
      'orders.status as order_status',
      'orders.created_at as order_created_at',
      'plans.sku',
      'plans.product',
    ])
    .where('domains.account_id', '=', accountId);
  const after = page.after;
  if (after !== null) {
    const cursorOrder = db.selectFrom('domains as cd').select('cd.order_id').where('cd.domain', '=', after);
    const cursorTime = db.selectFrom('domains as cd').innerJoin('orders as co', 'co.id', 'cd.order_id').select('co.created_at').where('cd.domain', '=', after);
    query = query.where((eb) =>
      eb.or([
        eb('orders.created_at', '<', cursorTime),
        eb.and([eb('orders.created_at', '=', cursorTime), eb('orders.id', '<', cursorOrder)]),
        eb.and([eb('orders.id', '=', cursorOrder), eb('domains.domain', '>', after)]),
      ]),
    );
  }
  return query.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').orderBy('domains.domain').limit(page.limit).execute();
}

/** How many domains the account has, and the mailboxes kept on them (counted by triggers). */
export async function countAccountDomains(db: Kysely<Database>, accountId: number): Promise<{ domains: number; mailboxes: number }> {
  const row = await db
    .selectFrom('domains')
    .select([sql<string>`count(*)`.as('domains'), sql<string>`coalesce(sum(mailbox_count), 0)`.as('mailboxes')])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return { domains: Number(row?.domains ?? 0), mailboxes: Number(row?.mailboxes ?? 0) };
}

/** The domains of these orders, by name. */
export function listOrderDomains(db: Kysely<Database>, orderIds: readonly number[]): Promise<{ order_id: number; domain: string }[]> {
  return db.selectFrom('domains').select(['order_id', 'domain']).where('order_id', 'in', orderIds).orderBy('domain').execute();
}

/**
 * Up to 500 domains of processor-placed orders whose build is stuck: queued longer than `queuedForMs`
 * or building longer than `buildingForMs` (both counted from the domain's creation) at `now` (ms).
 */
export function listStuckBuilds(db: Kysely<Database>, now: number, queuedForMs: number, buildingForMs: number): Promise<{ id: number }[]> {
  return db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select('domains.id')
    .where('orders.processor_subscription_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('domains.build_state', '=', 'queued'), eb('domains.created_at', '<', new Date(now - queuedForMs))]),
        eb.and([eb('domains.build_state', '=', 'building'), eb('domains.created_at', '<', new Date(now - buildingForMs))]),
      ]),
    )
    .limit(500)
    .execute();
}

/**
 * Up to 5000 live (or needing attention) domains of processor-placed orders with deliverability
 * monitoring on whose last run is older than `intervalMs`, the longest unwatched first: those of
 * `orderId` when given, otherwise those not already queued for `slot`.
 */
export function listDomainsDueMonitoring(db: Kysely<Database>, now: Date, intervalMs: number, slot: string, orderId?: number): Promise<{ id: number }[]> {
  let query = db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select('domains.id')
    .where('orders.monitor_deliverability', '=', true)
    // Only built domains have mail to watch; seeded or imported orders (no processor subscription) are left alone.
    .where('domains.build_state', 'in', ['live', 'needs_attention'])
    .where('orders.processor_subscription_id', 'is not', null)
    .where((eb) => eb.or([eb('domains.last_monitored_at', 'is', null), eb('domains.last_monitored_at', '<=', new Date(now.getTime() - intervalMs))]));
  if (orderId !== undefined) query = query.where('orders.id', '=', orderId);
  else query = query.where((eb) => eb.or([eb('domains.monitor_queued_slot', 'is', null), eb('domains.monitor_queued_slot', '<>', slot)]));
  return query.orderBy(sql`domains.last_monitored_at nulls first`).limit(5000).execute();
}

export async function markMonitoringQueued(db: Kysely<Database>, domainIds: readonly number[], slot: string): Promise<void> {
  await db.updateTable('domains').set({ monitor_queued_slot: slot }).where('id', 'in', domainIds).execute();
}

/** The domain with its order's deliverability switch. */
export function findDomainToMonitor(db: Kysely<Database>, domainId: number) {
  return db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select(['domains.id', 'domains.account_id', 'domains.domain', 'domains.order_id', 'orders.monitor_deliverability'])
    .where('domains.id', '=', domainId)
    .executeTakeFirst();
}

/** Records a monitoring run at `now` (watched_since is set by the first). */
export async function markDomainMonitored(db: Kysely<Database>, domainId: number, now: Date): Promise<void> {
  await db.updateTable('domains').set({ watched_since: sql`coalesce(watched_since, now())`, last_monitored_at: now }).where('id', '=', domainId).execute();
}

/** The domain with its order's reconnection switch (the mailbox check's subject); undefined for an unknown domain. */
export function findDomainToCheckMailboxes(db: Kysely<Database>, domainId: number) {
  return db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select(['domains.id', 'domains.account_id', 'domains.order_id', 'domains.domain', 'orders.monitor_reconnection'])
    .where('domains.id', '=', domainId)
    .executeTakeFirst();
}

export function findDomainToBuild(db: Kysely<Database>, domainId: number) {
  return db.selectFrom('domains').select(['id', 'account_id', 'order_id', 'domain', 'forward_to', 'build_state']).where('id', '=', domainId).executeTakeFirst();
}

/** Moves the domain's build state if it is still `from` (a conditional update: one mover wins); false when it was not. */
export async function moveBuildState(
  db: Kysely<Database>,
  domainId: number,
  from: BuildState,
  set: {
    build_state: BuildState;
    build_reason?: string | null;
    build_problems?: string;
    built_at?: Date;
    mailboxes_created_at?: Date;
    setup_next_check_at?: Date | null;
  },
): Promise<boolean> {
  const moved = await db.updateTable('domains').set(set).where('id', '=', domainId).where('build_state', '=', from).returning('id').executeTakeFirst();
  return moved !== undefined;
}

/** The domain by name, its row locked (FOR UPDATE) until the transaction ends. */
export function lockDomainByName(db: Kysely<Database>, domain: string) {
  return db.selectFrom('domains').select(['id', 'account_id', 'order_id', 'domain', 'build_state']).where('domain', '=', domain).forUpdate().executeTakeFirst();
}

/** Sets the build state whatever it was (the operator's hand). */
export async function setBuildStateRow(
  db: Kysely<Database>,
  domainId: number,
  set: { build_state: BuildState; build_reason: string | null; built_at?: Date },
): Promise<void> {
  await db.updateTable('domains').set(set).where('id', '=', domainId).execute();
}

export function listDomainsOfOrder(db: Kysely<Database>, orderId: number): Promise<{ id: number; domain: string }[]> {
  return db.selectFrom('domains').select(['id', 'domain']).where('order_id', '=', orderId).execute();
}

/** How many domains are in each build state (as key, n). */
export function countDomainsByBuildState(db: Kysely<Database>): Promise<{ key: string; n: number }[]> {
  return db
    .selectFrom('domains')
    .select(['build_state as key', sql<number>`count(*)`.as('n')])
    .groupBy('build_state')
    .execute();
}

/** Which of these domain names are on an order already, with the order's account and reference. */
export function listDomainsOnOrders(db: Kysely<Database>, names: readonly string[]): Promise<{ domain: string; account_id: number; reference: string }[]> {
  return db
    .selectFrom('domains')
    .innerJoin('orders', 'orders.id', 'domains.order_id')
    .select(['domains.domain', 'domains.account_id', 'orders.reference'])
    .where('domains.domain', 'in', names)
    .execute();
}

/** Which of these domain names are on an order. */
export function listDomainsNamed(db: Kysely<Database>, names: readonly string[]): Promise<{ domain: string }[]> {
  return db.selectFrom('domains').select('domain').where('domain', 'in', names).execute();
}

/** The order's domain names, sorted. */
export async function listOrderDomainNames(db: Kysely<Database>, orderId: number): Promise<string[]> {
  const rows = await db.selectFrom('domains').select('domain').where('order_id', '=', orderId).orderBy('domain').execute();
  return rows.map((d) => d.domain);
}

export function insertDomains(db: Kysely<Database>, domains: readonly NewDomain[]): Promise<{ id: number; domain: string }[]> {
  return db.insertInto('domains').values(domains).returning(['id', 'domain']).execute();
}

/** The account's domains (id and name), by name. */
export function listAccountDomains(db: Kysely<Database>, accountId: number): Promise<{ id: number; domain: string }[]> {
  return db.selectFrom('domains').select(['id', 'domain']).where('account_id', '=', accountId).orderBy('domain').execute();
}
