import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * The shared conformance suites: CONFORMANCE_DIR when set, else ../shared/conformance beside the
 * checkout (where CI lays it), else the session's /work/shared. Missing suites fail the tests loudly.
 */
function findConformanceDir(): string {
  const candidates = [process.env.CONFORMANCE_DIR, fileURLToPath(new URL('../../../shared/conformance', import.meta.url)), '/work/shared/conformance'].filter(
    (c): c is string => Boolean(c),
  );
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`The conformance suites are missing; looked in ${candidates.join(', ')}. Set CONFORMANCE_DIR.`);
  return found;
}

export const conformanceDir = findConformanceDir();
export const conformanceFile = (...parts: string[]) => join(conformanceDir, ...parts);
