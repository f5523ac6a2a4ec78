import { inject, type ProvidedContext } from 'vitest';

/**
 * What the run's globalSetups made (the transpiled copy, the migrated templates), read the same way
 * inside vitest and outside it. Inside, vitest's inject(); outside (npm run bench), what
 * bench/outside-vitest.ts made by running the same globalSetups once for the process. Without either,
 * the error says which to call.
 */
export function provided<K extends keyof ProvidedContext>(key: K): ProvidedContext[K] {
  const outside = (globalThis as { svcProvidedOutsideVitest?: Partial<ProvidedContext> }).svcProvidedOutsideVitest;
  if (!outside) return inject(key);
  if (!(key in outside)) throw new Error(`${key} was not provided: call provideOutsideVitest() (bench/outside-vitest.ts) before the test helpers.`);
  return outside[key] as ProvidedContext[K];
}
