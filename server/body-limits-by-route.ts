import type { OperationRow } from '../operations/operation-table.js';

type BodyLimit = NonNullable<OperationRow['maxBodyBytes']>;

/** The account listener's larger body caps, by "METHOD /path", from the rows that ask for one (the report upload). */
export function bodyLimitsByRoute(rows: readonly OperationRow[]): ReadonlyMap<string, BodyLimit> {
  return new Map(rows.flatMap((r): [string, BodyLimit][] => (r.listener === 'api' && r.maxBodyBytes ? [[`${r.method} ${r.path}`, r.maxBodyBytes]] : [])));
}
