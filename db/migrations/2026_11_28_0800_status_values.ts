import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration imports nothing from the application, so the lists are written out.
// The status columns hold only the values the doors document (and the GraphQL enums can serialise):
// Stripe's `canceled` and `incomplete_expired` orders become `cancelled` as docs/api.md says, and a
// CHECK on each column makes a writer that stores anything else fail at once rather than leave a
// value no door can show.
const CHECKS = [
  ['orders', 'orders_status_known', 'status', ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused', 'cancelled']],
  ['invoices', 'invoices_status_known', 'status', ['draft', 'open', 'paid', 'uncollectible', 'void']],
  ['domains', 'domains_build_state_known', 'build_state', ['queued', 'building', 'waiting_for_dns', 'live', 'needs_attention']],
  ['change_requests', 'change_requests_status_known', 'status', ['open', 'done', 'declined']],
  ['referral_earnings', 'referral_earnings_status_known', 'status', ['pending', 'paid']],
  ['webhook_deliveries', 'webhook_deliveries_status_known', 'status', ['pending', 'delivered', 'failed']],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('orders').set({ status: 'cancelled' }).where('status', 'in', ['canceled', 'incomplete_expired']).execute();
  // Anything else unknown to this list is shown as incomplete (not paid for), never as active.
  await db.updateTable('orders').set({ status: 'incomplete' }).where('status', 'not in', CHECKS[0][3]).execute();
  await db.updateTable('invoices').set({ status: 'open' }).where('status', 'not in', CHECKS[1][3]).execute();
  await db.updateTable('domains').set({ build_state: 'needs_attention' }).where('build_state', 'not in', CHECKS[2][3]).execute();
  for (const [table, name, column, values] of CHECKS) {
    await db.schema
      .alterTable(table)
      .addCheckConstraint(name, sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, name] of CHECKS) await db.schema.alterTable(table).dropConstraint(name).ifExists().execute();
}
