import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import pgliteTemplate from '../test/support/pglite-template.js';
import postgresTemplate from '../test/support/postgres-template.js';
import transpiledCopy from '../test/support/transpiled-copy.js';

/**
 * The test helpers the benches borrow (test/support/spawn-server.ts, test-database.ts, pglite-pool.ts)
 * read what vitest's globalSetups made through provided() (test/support/provided.ts). Outside the test
 * runner, this runs the same globalSetups once for the process (the transpiled copy of the repository,
 * the migrated PGlite template, the PostgreSQL template with DATABASE_URL) and hands their values to
 * provided(). Returns the teardown, which removes what they made. Calling it again is a no-op.
 */
export async function provideOutsideVitest(): Promise<() => Promise<void>> {
  const shared = globalThis as { svcProvidedOutsideVitest?: Partial<ProvidedContext>; svcOutsideVitestTeardown?: () => Promise<void> };
  if (shared.svcOutsideVitestTeardown) return shared.svcOutsideVitestTeardown;
  const values: Partial<ProvidedContext> = {};
  const project = {
    provide: <K extends keyof ProvidedContext>(key: K, value: ProvidedContext[K]) => {
      values[key] = value;
    },
  } as unknown as TestProject;
  const releases: (() => Promise<void>)[] = [];
  for (const setup of [transpiledCopy, pgliteTemplate, postgresTemplate]) releases.push(await setup(project));
  shared.svcProvidedOutsideVitest = values;
  let done = false;
  shared.svcOutsideVitestTeardown = async () => {
    if (done) return;
    done = true;
    for (const release of releases.reverse()) await release();
  };
  return shared.svcOutsideVitestTeardown;
}
