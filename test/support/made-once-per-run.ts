/**
 * For vitest globalSetups. vitest runs a globalSetup once per project (vitest.config.ts has two), but
 * what one makes (a migrated template, a transpiled copy) is needed once per run: the first project's
 * call makes it, the others share it, and `remove` runs when the last project's teardown releases it.
 */
export async function madeOncePerRun<T>(
  key: string,
  make: () => Promise<T>,
  remove: (made: T) => void | Promise<void>,
): Promise<{ made: T; release: () => Promise<void> }> {
  const shared = globalThis as { svcMadeOncePerRun?: Map<string, { made: Promise<unknown>; users: number }> };
  shared.svcMadeOncePerRun ??= new Map();
  let entry = shared.svcMadeOncePerRun.get(key);
  if (!entry) {
    entry = { made: make(), users: 0 };
    shared.svcMadeOncePerRun.set(key, entry);
  }
  entry.users += 1;
  const made = (await entry.made) as T;
  const held = entry;
  return {
    made,
    async release() {
      held.users -= 1;
      if (held.users === 0) await remove(made);
    },
  };
}
