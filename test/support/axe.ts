import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core in a page under test, for every page test that asks "axe-clean": one copy of the
 * injection and the reading, where nine files each had their own.
 */

/**
 * Which rules run: WCAG 2.0 A/AA and 2.1 A/AA only; every rule that concerns an element's name
 * (its accessible name, its label, and whether the name holds the visible text), best practices
 * included; or every rule axe-core has (best practices too).
 */
export type AxeRules = 'wcag' | 'names' | 'all';

// wcag21a holds label-content-name-mismatch (WCAG 2.5.3): without it a button spoken as
// "Reset the password of ada@x.com" but showing "Reset password" passed as WCAG-clean.
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core's rules about names: every `*-name` rule, `label*`, text alternatives (`*-alt`), titles, and multiple labels. */
export const NAME_RULES: readonly string[] = axe
  .getRules()
  .map((r) => r.ruleId)
  .filter((id) => /(^|-)name($|-)|^label|-alt$|title/.test(id) || id === 'form-field-multiple-labels');

function runOptions(rules: AxeRules): Record<string, unknown> {
  if (rules === 'wcag') return { runOnly: { type: 'tag', values: WCAG_TAGS }, resultTypes: ['violations'] };
  if (rules === 'names') return { runOnly: { type: 'rule', values: NAME_RULES }, resultTypes: ['violations'] };
  return { resultTypes: ['violations'] };
}

const RULES_IN_WORDS: Record<AxeRules, string> = { wcag: 'WCAG 2.1 A/AA', names: 'every rule about names', all: 'every rule' };

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[]; readonly html: string; readonly failureSummary?: string }[];
}

/** axe-core's serious and critical violations on the page as it stands, one readable line per element. */
export async function seriousAxeViolations(page: Page, rules: AxeRules = 'wcag'): Promise<string[]> {
  // Evaluated over the DevTools protocol rather than added as a <script>: the portal's
  // Content-Security-Policy (script-src 'self') rightly refuses an inline script, and the check
  // should run under the policy the portal ships. Once per document: a page keeps it until it navigates.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const options = runOptions(rules);
  const violations = (await page.evaluate(async (runOptions) => {
    const inPage = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await inPage.run(document, runOptions)).violations;
  }, options)) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.impact} ${v.id}: ${v.help} — ${n.target.join(' ')} ${n.html.slice(0, 160)}${n.failureSummary ? `\n    ${n.failureSummary.replaceAll('\n', '\n    ')}` : ''}`,
      ),
    );
}

/** Fails, listing each element, when axe-core finds a serious or critical violation on the page. */
export async function expectAxeClean(page: Page, rules: AxeRules = 'wcag', where = page.url()): Promise<void> {
  const violations = await seriousAxeViolations(page, rules);
  expect(violations, `axe-core (${RULES_IN_WORDS[rules]}) on ${where}:\n${violations.join('\n')}`).toEqual([]);
}
