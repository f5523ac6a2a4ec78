import type { DnsLookup } from '../../../clients/dns/dns-types.js';
import type { SpfMechanismTerm, SpfModifierTerm } from './parse-spf-record.js';
import type { SpfRecordLookup } from './spf-record-lookup.js';
import type { SpfIp } from './spf-ip.js';
import type { SpfMacroContext } from './expand-spf-macros.js';
import { addressTypeFor, isQueryableName, lookupExchangeAddresses, termTarget, validatedNames } from './spf-mechanism-dns.js';
import { MAX_DNS_LOOKUPS, MAX_NAMES_PER_LOOKUP } from './spf-result.js';

/** A record as the look-ahead knows it: loaded or not yet, and the records its include/redirect lead to. */
interface PlannedRecord {
  readonly domain: string;
  load: SpfRecordLookup | null;
  /** By term index (the redirect under REDIRECT). */
  readonly children: Map<number, PlannedRecord>;
  readonly started: Set<number>;
}

const REDIRECT = -1;

export interface SpfLookaheadDeps {
  readonly dns: DnsLookup;
  readonly record: (domain: string) => Promise<SpfRecordLookup>;
  readonly ip: SpfIp;
  readonly macro: SpfMacroContext;
  /** Terms not to prefetch (the audit looks up no ptr, nor names that need the client address when it has none). */
  readonly skip?: (term: SpfMechanismTerm | SpfModifierTerm) => boolean;
  /**
   * Lookup terms started in all (default 10, what one evaluation may ask). The audit allows more:
   * the lower bounds are loose while include records are still unread, and with only 10 a few
   * early guesses would leave the rest of the window to be read one round trip at a time.
   */
  readonly maxStarted?: number;
}

/**
 * Look-ahead for check_host(): starts the DNS questions of later terms while earlier ones are still
 * being answered, so an evaluation takes about as many round trips as the deepest include chain
 * instead of one per term. It only warms the per-request DNS cache; the evaluation still applies
 * every result strictly in record order and counts lookups itself.
 *
 * Budget (RFC 7208 4.6.4): terms are visited in evaluation order with a running count of the
 * lookup terms before them, using what is known so far (a not-yet-loaded include counts as
 * empty, so the count is a lower bound). Nothing whose count passes 10 is started, and at most 10
 * lookup terms are started in total (`maxStarted`; the audit allows 20, the ten past the first
 * asking one question each), so the look-ahead never asks more than a compliant evaluation may. A record that would end the evaluation (syntax error, missing or duplicate
 * record, failed lookup) ends the look-ahead there too.
 */
export function startSpfLookahead(domain: string, deps: SpfLookaheadDeps): void {
  let startedTerms = 0;
  const maxStarted = deps.maxStarted ?? MAX_DNS_LOOKUPS;
  const root = plan(domain);

  function plan(name: string): PlannedRecord {
    const planned: PlannedRecord = { domain: name, load: null, children: new Map(), started: new Set() };
    void deps.record(name).then(
      (load) => {
        planned.load = load;
        walk(root, 0);
      },
      () => undefined,
    );
    return planned;
  }

  /** Walks one record from lookup count `count`; returns the count after it, or null to stop. */
  function walk(rec: PlannedRecord, count: number): number | null {
    if (rec.load === null) return count;
    if (rec.load.kind !== 'found' || rec.load.record.errors.length > 0) return null;
    const record = rec.load.record;
    let n = count;
    for (const [index, term] of record.terms.entries()) {
      if (term.kind !== 'mechanism') continue;
      if (term.name === 'all') return n;
      if (term.name === 'ip4' || term.name === 'ip6') continue;
      const next = visit(rec, index, term, n);
      if (next === null) return null;
      n = next;
    }
    if (record.redirect && !record.hasAll) return visit(rec, REDIRECT, record.redirect, n);
    return n;
  }

  function visit(rec: PlannedRecord, index: number, term: SpfMechanismTerm | SpfModifierTerm, count: number): number | null {
    const n = count + 1;
    if (n > MAX_DNS_LOOKUPS) return null;
    if (!rec.started.has(index)) {
      if (startedTerms >= maxStarted) return null;
      rec.started.add(index);
      startedTerms += 1;
      void start(rec, index, term, startedTerms).catch(() => undefined);
    }
    const child = rec.children.get(index);
    return child ? walk(child, n) : n;
  }

  /** `rank`: how many terms were started before this one and with it. */
  async function start(rec: PlannedRecord, index: number, term: SpfMechanismTerm | SpfModifierTerm, rank: number): Promise<void> {
    if (deps.skip?.(term)) return;
    const name = await termTarget(term, rec.domain, deps.macro);
    const kind = term.kind === 'modifier' ? 'redirect' : term.name;
    if (kind === 'ptr') {
      await validatedNames(deps.dns, deps.ip);
      return;
    }
    if (!isQueryableName(name)) return;
    switch (kind) {
      case 'include':
      case 'redirect':
        rec.children.set(index, plan(name));
        return;
      case 'a':
        await deps.dns.lookup(name, addressTypeFor(deps.ip));
        return;
      case 'exists':
        await deps.dns.lookup(name, 'A');
        return;
      case 'mx': {
        const mx = await deps.dns.lookup(name, 'MX');
        // Up to 10 more questions each: only for the first 10 terms started, so the extra terms
        // an audit may start cost one question apiece.
        if (mx.ok && mx.records.length <= MAX_NAMES_PER_LOOKUP && rank <= MAX_DNS_LOOKUPS) await lookupExchangeAddresses(deps.dns, mx, deps.ip);
        return;
      }
    }
  }
}
