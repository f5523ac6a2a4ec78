import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, localOnlyContext, NO_CHROMIUM_REASON, runBrowserTests } from '../support/browser.js';
import { expectAxeClean, seriousAxeViolations } from '../support/axe.js';

/**
 * The page tests' "axe-clean" (test/support/axe.ts) can fail: a page with a nameless button and an
 * image without alt text is reported element by element, under each rule set, as is a button whose spoken
 * name does not hold its visible text (label-content-name-mismatch, WCAG 2.1 A); a clean page is not.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;
const FLAWED =
  '<!doctype html><html lang="en"><title>t</title><main><h1>Page</h1><button id="nameless"></button><img id="no-alt" src="data:,"><button id="mismatch" aria-label="Reset the password of ada@x.com">Reset password</button></main></html>';
const CLEAN =
  '<!doctype html><html lang="en"><title>t</title><main><h1>Page</h1><button>Save</button><img alt="A dot" src="data:,"><button aria-label="Reset password for ada@x.com">Reset password</button></main></html>';

let browser: Browser | undefined;
beforeAll(async () => {
  if (runBrowserTests) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it.skipIf(!runBrowserTests)(`names each serious violation and its element, and passes a clean page${skipNote}`, async () => {
  const { context } = await localOnlyContext(browser!);
  try {
    const page = await context.newPage();
    await page.setContent(FLAWED);
    for (const rules of ['wcag', 'names', 'all'] as const) {
      const found = await seriousAxeViolations(page, rules);
      expect(found.some((line) => line.startsWith('critical button-name:') && line.includes('#nameless'))).toBe(true);
      expect(found.some((line) => line.startsWith('critical image-alt:') && line.includes('#no-alt'))).toBe(true);
      expect(
        found.some((line) => line.startsWith('serious label-content-name-mismatch:') && line.includes('#mismatch')),
        rules,
      ).toBe(true);
    }
    const failure = await expectAxeClean(page, 'wcag', 'the flawed page').then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/axe-core \(WCAG 2\.1 A\/AA\) on the flawed page:[\s\S]*button-name/);
    await page.setContent(CLEAN);
    expect(await seriousAxeViolations(page, 'all')).toEqual([]);
    await expectAxeClean(page, 'all');
    await expectAxeClean(page, 'names');
    await expectAxeClean(page, 'wcag');
  } finally {
    await context.close();
  }
});
