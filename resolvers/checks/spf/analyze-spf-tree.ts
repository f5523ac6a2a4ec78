import { MAX_DNS_LOOKUPS } from './spf-result.js';
import { startSpfLookahead } from './spf-lookahead.js';
import { needsIp } from './spf-term-target.js';
import { expandSpfRecord } from './expand-spf-record.js';
import { startSpfTreeWalk } from './spf-tree-walk.js';
import type { AnalyzeSpfOptions, SpfTreeAnalysis } from './spf-tree-types.js';

/** The tree's node type, where readers of the answer have always found it. */
export type { SpfTermNode } from './spf-tree-types.js';

/**
 * The whole SPF tree of a domain, for people reading it, counting lookups as RFC 7208 4.6.4 does for
 * an address that matches nothing (the path every unlisted sender takes). Terms are judged in
 * evaluation order and the audit stops where receivers stop (the 11th DNS lookup, the 3rd void
 * lookup, an mx of more than 10 names): terms after that are listed, not looked up, so no record
 * can make one check ask more than the limits allow. The look-ahead prefetches within the 10-lookup
 * window, so the wall time stays about the depth of the tree.
 */
export async function analyzeSpfTree(domain: string, options: AnalyzeSpfOptions): Promise<SpfTreeAnalysis> {
  if (options.lookahead !== false) {
    startSpfLookahead(domain, {
      dns: options.dns,
      record: options.record,
      ip: options.macro.ip,
      macro: options.macro,
      maxStarted: 2 * MAX_DNS_LOOKUPS,
      skip: (term) => (term.kind === 'mechanism' && term.name === 'ptr') || (!options.hasIp && needsIp(term.tokens)),
    });
  }
  const walk = startSpfTreeWalk(options);
  const root = await expandSpfRecord(walk, domain, [domain], 'policy');
  const { findings, dnsFailures, voidNames, stopped } = walk;
  return { root, findings, dnsFailures, voidNames, stopped, strictVoids: { voidLookups: walk.strictVoids, stoppedAt: walk.strictStop } };
}
