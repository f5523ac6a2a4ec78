import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (prom-client), served on METRICS_PORT only (server/serve-metrics.ts): a port of its own
 * keeps them off both public listeners (they name routes and job failures, which are the operator's
 * business) and lets a scraper reach them without an API key. Callers use the record* functions;
 * nothing here throws into a request.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by listener, method, route and status.',
  labelNames: ['listener', 'method', 'route', 'status'],
  registers: [registry],
});
const latency = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to answer, by listener and route.',
  labelNames: ['listener', 'route'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
  registers: [registry],
});
const rateLimited = new Counter({
  name: 'rate_limit_refusals_total',
  help: 'Requests refused with 429, by allowance.',
  labelNames: ['class'],
  registers: [registry],
});
const dnsQuestions = new Counter({
  name: 'dns_questions_total',
  help: 'DNS questions sent on the wire by the checks.',
  labelNames: ['kind'],
  registers: [registry],
});
const checkOutcomes = new Counter({
  name: 'check_outcomes_total',
  help: 'Check answers, by check and status (pass, warn, fail, error).',
  labelNames: ['check', 'status', 'source'],
  registers: [registry],
});
const jobsDone = new Histogram({
  name: 'job_duration_seconds',
  help: 'Jobs finished, by task.',
  labelNames: ['task'],
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
  registers: [registry],
});
const jobFailures = new Counter({
  name: 'job_failures_total',
  help: 'Job runs that failed (each is retried with backoff until its attempts run out).',
  labelNames: ['task'],
  registers: [registry],
});
const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (delivered, retry, failed, refused).',
  labelNames: ['outcome'],
  registers: [registry],
});
const alertEmails = new Counter({
  name: 'alert_emails_total',
  help: 'Alert e-mails written, by transport (smtp, outbox).',
  labelNames: ['transport'],
  registers: [registry],
});
const reportFiles = new Counter({
  name: 'report_files_total',
  help: 'DMARC aggregate and TLS-RPT report files received, by door (smtp, upload), kind (dmarc, tls, unknown) and outcome (stored, duplicate, unknown_domain, refused).',
  labelNames: ['via', 'kind', 'outcome'],
  registers: [registry],
});
const reportRefusals = new Counter({
  name: 'report_refusals_total',
  help: 'Report files refused unread or unparsed, by reason (decompression_bomb, dtd_refused, invalid_xml, invalid_utf8, too_large, ...).',
  labelNames: ['code'],
  registers: [registry],
});
const reportTasks = new Gauge({
  name: 'report_tasks',
  help: 'Report files in the worker pool now, by state (running in a worker thread, waiting for one).',
  labelNames: ['state'],
  registers: [registry],
});
const reportSmtpConnections = new Counter({
  name: 'report_smtp_connections_total',
  help: 'Connections to the report SMTP listener, by outcome (accepted, or refused: per_address, busy).',
  labelNames: ['outcome'],
  registers: [registry],
});
const reportSmtpRefusals = new Counter({
  name: 'report_smtp_refusals_total',
  help: 'Report messages and connections the SMTP listener refused or dropped, by reason (unknown_domain, no_domain, busy, too_large, deadline, too_slow, postmaster).',
  labelNames: ['reason'],
  registers: [registry],
});
const queueDepth = new Gauge({ name: 'job_queue_depth', help: 'Jobs in the queue at scrape time, by state.', labelNames: ['state'], registers: [registry] });

let readQueue: (() => Promise<{ waiting: number; running: number; retrying: number; failed: number }>) | null = null;

/** IDs, domains and other free text in paths would make a series per value; they are folded to ":id" (the version, v1, stays). */
export function routeOf(path: string): string {
  const clean = path.split('?')[0] ?? '';
  return (
    clean
      .split('/')
      .map((segment) => ((/[\d.@%]/.test(segment) && !/^v\d+$/.test(segment)) || segment.length > 40 ? ':id' : segment))
      .join('/')
      .slice(0, 80) || '/'
  );
}

/**
 * At most this many routes get series of their own; later ones count as "(other)". Paths are the
 * caller's to choose (any word of 40 letters is a route to routeOf), and every series is memory
 * kept for the life of the process. A 404 on a path with no id in it (made-up words: ours all
 * answer something) makes no route known and counts as "(unmatched)", so junk cannot use up the
 * routes that exist; a 404 on an id-shaped route (an unknown order) is counted under its route.
 */
export const MAX_ROUTES = 300;
const knownRoutes = new Set<string>();

function boundedRoute(path: string, status: number): string {
  const route = routeOf(path);
  if (knownRoutes.has(route)) return route;
  if (status === 404 && !route.includes(':id')) return '(unmatched)';
  if (knownRoutes.size >= MAX_ROUTES) return '(other)';
  knownRoutes.add(route);
  return route;
}

export function recordRequest(listener: string, method: string, path: string, status: number, seconds: number): void {
  const route = boundedRoute(path, status);
  requests.inc({ listener, method, route, status: String(status) });
  latency.observe({ listener, route }, seconds);
}

export function recordRateLimitRefusal(kind: string): void {
  rateLimited.inc({ class: kind });
}
export function recordDnsQuestion(kind: 'recursive' | 'direct'): void {
  dnsQuestions.inc({ kind });
}
export function recordCheckOutcome(check: string, status: string, source: 'request' | 'job' = 'request'): void {
  checkOutcomes.inc({ check, status, source });
}
export function recordJobFinished(task: string, seconds: number): void {
  jobsDone.observe({ task }, seconds);
}
export function recordJobFailure(task: string): void {
  jobFailures.inc({ task });
}
export function recordWebhookDelivery(outcome: 'delivered' | 'retry' | 'failed' | 'refused'): void {
  webhookDeliveries.inc({ outcome });
}
export function recordAlertEmail(transport: string): void {
  alertEmails.inc({ transport });
}

/** The jobs register how to read the queue; the gauge is filled at each scrape. */
/** One report file's fate; a refusal also counts its reason. A report for a domain no account owns is `unknown_domain` (dropped). */
export function recordReportFile(via: string, kind: string, outcome: 'stored' | 'duplicate' | 'unknown_domain' | 'refused', code?: string): void {
  reportFiles.inc({ via, kind, outcome });
  if (code) reportRefusals.inc({ code });
}

/** A report task entered (+1) or left (-1) the worker pool, running or waiting. */
export function recordReportTask(state: 'running' | 'waiting', change: 1 | -1): void {
  reportTasks.inc({ state }, change);
}
export function recordReportSmtpConnection(outcome: 'accepted' | 'per_address' | 'busy'): void {
  reportSmtpConnections.inc({ outcome });
}
export function recordReportSmtpRefusal(reason: 'unknown_domain' | 'no_domain' | 'busy' | 'too_large' | 'deadline' | 'too_slow' | 'postmaster'): void {
  reportSmtpRefusals.inc({ reason });
}

export function watchQueueDepth(read: typeof readQueue): void {
  readQueue = read;
}

export async function metricsText(): Promise<string> {
  if (readQueue) {
    const depth = await readQueue().catch(() => null);
    if (depth) for (const state of ['waiting', 'running', 'retrying', 'failed'] as const) queueDepth.set({ state }, depth[state]);
  }
  return registry.metrics();
}
