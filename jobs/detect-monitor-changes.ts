/** One monitoring run's findings, as stored in monitor_runs. */
export interface MonitorSnapshot {
  readonly grade: string | null;
  /** Lists the domain or its mail hosts were on ("list: target"). */
  readonly listedOn: readonly string[];
  /** pass, warn, fail or error per mechanism. */
  readonly auth: Readonly<Record<'spf' | 'dkim' | 'dmarc', string>>;
}

export interface MonitorChange {
  readonly kind: 'listed' | 'delisted' | 'auth_broken' | 'auth_fixed' | 'grade_dropped';
  readonly message: string;
  readonly lists?: readonly string[];
}

const GRADES = ['A', 'B', 'C', 'D', 'E', 'F'];

/**
 * What changed since the previous run that a customer should hear about: newly listed (or delisted),
 * SPF/DKIM/DMARC that passed and now fail (broken or removed), and a lower grade. The first run has
 * nothing to compare with, except that a listing is news whenever it is first seen.
 */
export function detectMonitorChanges(domain: string, previous: MonitorSnapshot | null, current: MonitorSnapshot): MonitorChange[] {
  const changes: MonitorChange[] = [];
  const before = new Set(previous?.listedOn ?? []);
  const now = new Set(current.listedOn);
  const added = current.listedOn.filter((l) => !before.has(l));
  const removed = (previous?.listedOn ?? []).filter((l) => !now.has(l));
  if (added.length)
    changes.push({
      kind: 'listed',
      lists: added,
      message: `${domain} is now listed on ${added.join(', ')}; mail from it may be refused. See the blocklist check for how to ask for removal.`,
    });
  if (removed.length) changes.push({ kind: 'delisted', lists: removed, message: `${domain} is no longer listed on ${removed.join(', ')}.` });
  if (!previous) return changes;
  for (const mechanism of ['spf', 'dkim', 'dmarc'] as const) {
    const was = previous.auth[mechanism];
    const is = current.auth[mechanism];
    if ((was === 'pass' || was === 'warn') && is === 'fail') {
      changes.push({
        kind: 'auth_broken',
        message: `${mechanism.toUpperCase()} for ${domain} passed before and now fails (the record was changed or removed); run check-${mechanism} for what to fix.`,
      });
    } else if (was === 'fail' && (is === 'pass' || is === 'warn')) {
      changes.push({ kind: 'auth_fixed', message: `${mechanism.toUpperCase()} for ${domain} passes again.` });
    }
  }
  if (previous.grade && current.grade && GRADES.indexOf(current.grade) > GRADES.indexOf(previous.grade)) {
    changes.push({
      kind: 'grade_dropped',
      message: `The deliverability grade of ${domain} dropped from ${previous.grade} to ${current.grade}; run check-deliverability for the fixes worth most.`,
    });
  }
  return changes;
}
