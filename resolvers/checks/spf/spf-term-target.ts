import type { MacroToken } from './spf-macro-string.js';
import { expandMacros, isQueryableName, targetName } from './expand-spf-macros.js';
import type { AnalyzeSpfOptions } from './spf-tree-types.js';

const IP_LETTERS: ReadonlySet<string> = new Set(['i', 'c', 'p', 'v']);

/** True when a domain-spec uses a macro letter that needs the client address (%{i}, %{c}, %{p}, %{v}). */
export const needsIp = (tokens: readonly MacroToken[] | null): boolean => tokens !== null && tokens.some((t) => t.kind === 'macro' && IP_LETTERS.has(t.letter));

/**
 * The name a term points at, macros expanded: the current domain when it names none, null when it
 * depends on an address the audit does not have or does not expand to a name that can be asked.
 */
export async function spfTermTarget(options: AnalyzeSpfOptions, tokens: readonly MacroToken[] | null, current: string): Promise<string | null> {
  if (tokens === null) return current;
  if (!options.hasIp && needsIp(tokens)) return null;
  const name = targetName(await expandMacros(tokens, current, options.macro)).toLowerCase();
  return isQueryableName(name) ? name : null;
}
