/**
 * A counting semaphore: `run` starts the task when fewer than `limit` are running, otherwise queues
 * it. Bulk checks fan out to hundreds of questions; the cap keeps one request from flooding the
 * resolver (and from being rate-limited by it).
 */
export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`A concurrency limit must be a whole number of at least 1, not ${limit}.`);
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its slot straight to the next waiter, so a caller arriving in between
  // cannot slip in and push the count over the limit.
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
