import { sql } from 'kysely';
import type { Services } from '../resolvers/context.js';
import { jsonResponse } from '../operations/json-response.js';

/** /healthz: the process answers. /readyz: it can also reach its database. */
export async function healthResponse(path: string, services: Services): Promise<Response | null> {
  if (path === '/healthz') return jsonResponse(200, { status: 'ok' });
  if (path !== '/readyz') return null;
  try {
    await sql`select 1`.execute(services.db);
    return jsonResponse(200, { status: 'ready', database: services.dbKind });
  } catch {
    return jsonResponse(
      503,
      { status: 'unavailable', detail: 'The database cannot be reached; this instance should not take traffic until it can.' },
      { 'Retry-After': '5' },
    );
  }
}
