import { expect, it } from 'vitest';
import { launchChromium, localOnlyContext, NO_CHROMIUM_REASON, runBrowserTests } from '../support/browser.js';

/**
 * The worker's one Chromium (test/support/browser.ts) is lent to each file: a file's close() must end
 * what that file opened and nothing another file still uses, and leave the browser for the next file.
 */
const skipNote = runBrowserTests ? '' : ` (${NO_CHROMIUM_REASON})`;

it.skipIf(!runBrowserTests)(`two files' handles share one browser; each close() ends only its own contexts${skipNote}`, async () => {
  const one = await launchChromium();
  const other = await launchChromium();
  const mine = await localOnlyContext(one);
  const theirs = await localOnlyContext(other);
  const closed = new Set<string>();
  mine.context.once('close', () => closed.add('mine'));
  theirs.context.once('close', () => closed.add('theirs'));
  try {
    await one.close();
    expect([...closed]).toEqual(['mine']);
    const page = await theirs.context.newPage();
    await page.goto('about:blank');
    expect(other.isConnected()).toBe(true);
    await expect(one.newPage()).rejects.toThrow('localOnlyContext');
  } finally {
    await other.close();
  }
  expect([...closed].sort()).toEqual(['mine', 'theirs']);
  const next = await launchChromium();
  expect(next.isConnected(), 'the browser stays for the next file').toBe(true);
  await next.close();
});
