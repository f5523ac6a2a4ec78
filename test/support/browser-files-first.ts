import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * vitest's order, except that the browser files (test/web/) start first. vitest runs the files that
 * took longest last time first, and with no timings kept (a clean clone, as in CI) the largest first:
 * the browser files are small but among the longest, mostly waiting on Chromium, and one started
 * last keeps the whole run waiting for it alone.
 */
export class BrowserFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isBrowserFile = (file: TestSpecification) => file.moduleId.includes('/test/web/');
    return [...sorted.filter(isBrowserFile), ...sorted.filter((file) => !isBrowserFile(file))];
  }
}
