import { execFileSync } from 'node:child_process';

/**
 * vitest globalSetup: builds the portal when its sources changed since the last build (the script
 * skips otherwise, in well under a second), so the browser tests always load the pages under test.
 */
export default function buildPortal(): void {
  // vitest runs a globalSetup once per project (vitest.config.ts has two): one build is enough.
  const shared = globalThis as { svcPortalBuilt?: boolean };
  if (shared.svcPortalBuilt) return;
  shared.svcPortalBuilt = true;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-portal.ts'], { cwd: new URL('../../', import.meta.url), stdio: 'inherit' });
}
