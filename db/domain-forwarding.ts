import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The ordered domain of that name and where it forwards (null: nowhere set); undefined when no order holds it. */
export function findDomainForward(db: Kysely<Database>, domain: string): Promise<{ forward_to: string | null } | undefined> {
  return db.selectFrom('domains').select('forward_to').where('domain', '=', domain).limit(1).executeTakeFirst();
}
