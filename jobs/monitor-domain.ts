import { insertDomainAnalyticsDay } from '../db/domain-analytics.js';
import { findDomainToMonitor, markDomainMonitored } from '../db/domains.js';
import { listAccountEventsWaitingFanOut } from '../db/events.js';
import { findLastMonitorRun, findMonitorRun, insertMonitorRun } from '../db/monitor-runs.js';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import { checkBlacklist } from '../resolvers/checks/blacklist/check-blacklist.js';
import type { DnsLookup } from '../clients/dns/dns-types.js';
import { recordEvent } from '../resolvers/events/record-event.js';
import type { EventType } from '../resolvers/events/event-types.js';
import { recordCheckOutcome } from '../observability/metrics.js';
import { faultPoint, type TaskFunction } from './job-types.js';
import { jobCheckContext } from './job-check-context.js';
import { checkSetupOnce } from './check-domain-setup.js';
import { detectMonitorChanges, type MonitorSnapshot } from './detect-monitor-changes.js';

/** The monitoring period a moment falls in; one run per domain and slot. */
export function monitorSlot(now: Date, intervalMs: number): string {
  return String(Math.floor(now.getTime() / intervalMs));
}

/** Lookups asked twice in one run (the grade's blocklist part and the listing detail) go out once. */
function remembering(dns: DnsLookup): DnsLookup {
  const seen = new Map<string, ReturnType<DnsLookup['lookup']>>();
  return {
    lookup(name, type) {
      const key = `${type} ${name.toLowerCase()}`;
      let answer = seen.get(key);
      if (!answer) {
        answer = dns.lookup(name, type);
        seen.set(key, answer);
      }
      return answer as never;
    },
    get questionsAsked() {
      return dns.questionsAsked;
    },
    ...(dns.askServer && { askServer: dns.askServer.bind(dns) }),
    ...(dns.budget && { budget: dns.budget }),
    ...(dns.signal && { signal: dns.signal }),
  };
}

/**
 * One monitoring run for one domain: the grade (which runs SPF, DKIM, DMARC, MX, blocklist and age
 * checks), the blocklist detail for the domain and its mail hosts, then, in one transaction: the run
 * (keyed by domain and slot, so a retried job records nothing twice), the day's analytics row,
 * watched_since on the first run, and an event per change worth telling. Monitoring switched off
 * since the job was queued: nothing runs.
 */
export const monitorDomain: TaskFunction = async (payload: { domainId: number; slot: string }, env) => {
  const { db } = env;
  const domain = await findDomainToMonitor(db, payload.domainId);
  if (!domain || !domain.monitor_deliverability) return;
  const done = await findMonitorRun(db, domain.id, payload.slot);
  if (done) return fanOutPending(env, domain.account_id);
  // The setup too: a live domain whose records broke needs attention (and is live again once fixed).
  await checkSetupOnce(env, domain.id);

  const { checks } = jobCheckContext(env.services);
  const ctx = { ...checks, dns: remembering(checks.dns) };
  const [grade, listing] = await Promise.all([checkDeliverability({ domain: domain.domain }, ctx), checkBlacklist({ input: domain.domain }, ctx)]);
  recordCheckOutcome('check-deliverability', grade.status, 'job');
  recordCheckOutcome('check-blacklist', listing.status, 'job');
  const current: MonitorSnapshot = {
    grade: grade.grade,
    listedOn: listing.lists
      .filter((l) => l.listed === true)
      .map((l) => `${l.list}: ${l.target}`)
      .sort(),
    auth: { spf: grade.checks.spf.status, dkim: grade.checks.dkim.status, dmarc: grade.checks.dmarc.status },
  };
  const last = await findLastMonitorRun(db, domain.id);
  const previous: MonitorSnapshot | null = last ? { grade: last.grade, listedOn: JSON.parse(last.listed_on), auth: JSON.parse(last.auth) } : null;
  const changes = detectMonitorChanges(domain.domain, previous, current);
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  const figures = await env.adapter.dailyFigures(domain.domain, day);

  const eventIds = await db.transaction().execute(async (trx) => {
    const run = await insertMonitorRun(trx, {
      domain_id: domain.id,
      slot: payload.slot,
      grade: current.grade,
      listed_on: JSON.stringify(current.listedOn),
      auth: JSON.stringify(current.auth),
      dns_questions: checks.dns.questionsAsked,
    });
    if (!run) return [];
    await insertDomainAnalyticsDay(trx, domain.id, day, figures);
    await markDomainMonitored(trx, domain.id, now);
    const ids: string[] = [];
    for (const change of changes) {
      const type: EventType = change.kind === 'listed' ? 'domain.listed' : change.kind === 'delisted' ? 'domain.delisted' : 'monitor.changed';
      const id = await recordEvent(trx, domain.account_id, type, {
        domain: domain.domain,
        order_id: domain.order_id,
        change: change.kind,
        message: change.message,
        ...(change.lists && { lists: change.lists }),
        grade: current.grade,
        previous_grade: previous?.grade ?? null,
      });
      if (id) ids.push(id);
    }
    return ids;
  });
  faultPoint(env, 'monitor_after_record');
  for (const eventId of eventIds) await env.enqueue('fan_out_event', { eventId }, { key: `fan_out:${eventId}` });
};

/** A run cut off after it recorded its events: they still go out (fan-out is idempotent). */
async function fanOutPending(env: Parameters<TaskFunction>[1], accountId: number): Promise<void> {
  const pending = await listAccountEventsWaitingFanOut(env.db, accountId);
  for (const e of pending) await env.enqueue('fan_out_event', { eventId: e.id }, { key: `fan_out:${e.id}` });
}
