import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The PTR names resolved for `sourceIps` since `since` (an address absent was not resolved, or too long ago). */
export async function findSourcePtrNames(db: Kysely<Database>, sourceIps: readonly string[], since: Date): Promise<Map<string, string | null>> {
  if (sourceIps.length === 0) return new Map();
  const rows = await db
    .selectFrom('source_ptr_names')
    .select(['source_ip', 'ptr'])
    .where('source_ip', 'in', [...sourceIps])
    .where('resolved_at', '>=', since)
    .execute();
  return new Map(rows.map((r) => [r.source_ip, r.ptr]));
}

/** Records what the resolver answered for each address (null: no PTR), replacing an older answer. */
export async function upsertSourcePtrNames(db: Kysely<Database>, names: ReadonlyMap<string, string | null>, now: Date): Promise<void> {
  if (names.size === 0) return;
  await db
    .insertInto('source_ptr_names')
    .values([...names].map(([source_ip, ptr]) => ({ source_ip, ptr, resolved_at: now })))
    .onConflict((oc) => oc.column('source_ip').doUpdateSet((eb) => ({ ptr: eb.ref('excluded.ptr'), resolved_at: eb.ref('excluded.resolved_at') })))
    .execute();
}
