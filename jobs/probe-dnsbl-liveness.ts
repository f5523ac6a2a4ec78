import { findNewestDnsblProbe, saveDnsblLiveness } from '../db/dnsbl-liveness.js';
import { probeDnsblLists } from '../resolvers/checks/blacklist/probe-dnsbl-lists.js';
import { log } from '../observability/log.js';
import type { TaskFunction } from './job-types.js';
import { jobCheckContext } from './job-check-context.js';

/**
 * The recurring probe of every blocklist's RFC 5782 test points (64 questions), written to the
 * dnsbl_liveness table for every request and instance to share. Each instance with jobs queues it
 * every DNSBL_LIVENESS_INTERVAL_MS under one job key; a run that finds a probe younger than half the
 * interval (another instance's) asks nothing, so the lists are probed about once per interval
 * however many instances there are.
 */
export const probeDnsblLiveness: TaskFunction = async (_payload, env) => {
  const board = env.services.dnsblLiveness;
  const newest = await findNewestDnsblProbe(env.db);
  if (newest && Date.now() - newest.getTime() < board.intervalMs / 2) return;
  const { checks } = jobCheckContext(env.services);
  const probes = await probeDnsblLists(checks.dns, checks.blacklist, new Date());
  await saveDnsblLiveness(env.db, probes);
  board.remember(probes);
  const dead = probes.filter((p) => p.alive === false).map((p) => p.list_id);
  const unsure = probes.filter((p) => p.alive === null).map((p) => p.list_id);
  if (dead.length > 0 || unsure.length > 0)
    log('warn', 'blocklists failed or did not answer their RFC 5782 test points', { dead: dead.join(','), unanswered: unsure.join(',') });
};
