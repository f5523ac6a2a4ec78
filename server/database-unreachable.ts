/**
 * Whether an error means the database could not be reached (rather than a bug or a refused
 * statement): the connection was refused, reset or timed out, the server is shutting down or
 * starting (SQLSTATE 57P01-57P03), or any connection exception (SQLSTATE class 08). Such a request
 * is answered 503 with a retry hint, never 500: the caller did nothing wrong and a retry will work
 * once the database is back. Shown by test/faults/database-outage.test.ts.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    const code = 'code' in e && typeof e.code === 'string' ? e.code : '';
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTCONN', 'EHOSTUNREACH', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08'))
      return true;
    const message = 'message' in e && typeof e.message === 'string' ? e.message : '';
    if (/Connection terminated|timeout exceeded when trying to connect|not queryable|Connection closed|connect ECONNREFUSED/i.test(message)) return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

export const DATABASE_UNAVAILABLE_DETAIL = 'The database cannot be reached at the moment; retry in a few seconds.';
