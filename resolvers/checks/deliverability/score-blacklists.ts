import type { BlacklistAnswer } from '../blacklist/check-blacklist.js';
import { DNSBL_LISTS } from '../blacklist/dnsbl-lists.js';
import type { DnsblListResult } from '../blacklist/query-dnsbl.js';
import type { Deduction, PartAssessment } from './part-assessment.js';
import { notScored, scoredPart } from './part-assessment.js';

const MAJOR = new Set(DNSBL_LISTS.filter((l) => l.weight === 'major').map((l) => l.id));
/** Each small or aggressive list costs a quarter of the part; four of them cost it all. */
const MINOR_FRACTION = 0.25;

function removalSentence(entries: readonly DnsblListResult[]): string {
  const byList = new Map<string, DnsblListResult>();
  for (const e of entries) if (!byList.has(e.listId)) byList.set(e.listId, e);
  return [...byList.values()].map((e) => `${e.list} (${e.removalUrl})`).join(', ');
}

function listedOn(entries: readonly DnsblListResult[], kind: string): string {
  const targets = new Set(entries.map((e) => e.target)).size;
  const lists = new Set(entries.map((e) => e.listId)).size;
  return `${targets === 1 ? 'is' : 'are'} listed on ${lists === 1 ? `a ${kind} blocklist` : `${lists} ${kind} blocklists`}`;
}

/**
 * Blacklists: full marks when no list that answered lists the domain or its mail servers. A
 * listing on a major list (Spamhaus, Barracuda, SpamCop...) blocks mail at many receivers: the part
 * scores nothing and the grade is capped at D. Lists that gave no usable answer are never counted
 * as listings; when none answered the part is not scored.
 */
export function scoreBlacklists(answer: BlacklistAnswer): PartAssessment {
  if (answer.status === 'error') return notScored('error', `Not scored: ${answer.summary}`);
  const listed = answer.lists.filter((l) => l.listed === true);
  const major = listed.filter((l) => MAJOR.has(l.listId));
  const minor = listed.filter((l) => !MAJOR.has(l.listId));
  const deductions: Deduction[] = [];
  const targets = (entries: readonly DnsblListResult[]): string => [...new Set(entries.map((e) => e.target))].join(', ');
  if (major.length > 0) {
    deductions.push({
      code: 'blacklist_major',
      fraction: 1,
      cap: 'D',
      problem: `${targets(major)} ${listedOn(major, 'major')}: ${removalSentence(major)}.`,
      fix: `Stop what got the listing (compromised accounts, purchased lists, high complaint rates), then ask for removal at ${removalSentence(major)}.`,
    });
  }
  if (minor.length > 0) {
    const lists = new Set(minor.map((m) => m.listId)).size;
    deductions.push({
      code: 'blacklist_minor',
      fraction: Math.min(1, lists * MINOR_FRACTION),
      problem: `${targets(minor)} ${listedOn(minor, 'smaller')}: ${removalSentence(minor)}.`,
      fix: `Ask for removal at ${removalSentence(minor)}.`,
    });
  }
  const unanswered =
    answer.unansweredCount > 0 ? ` ${answer.unansweredCount} of ${answer.lists.length} list queries gave no usable answer and were not counted.` : '';
  const notChecked = answer.findings.find((f) => f.code === 'mail_servers_not_checked');
  const detail =
    (deductions.length === 0 ? answer.summary : deductions.map((d) => d.problem).join(' ')) + unanswered + (notChecked ? ` ${notChecked.message}` : '');
  return scoredPart(answer.status, detail, deductions);
}
