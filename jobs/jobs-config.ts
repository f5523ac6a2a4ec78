/** The jobs' settings, read once at start; a bad value stops the start with a sentence. */
export interface JobsConfig {
  /** JOBS=off starts no workers in this process (the API still enqueues; another instance works). */
  readonly enabled: boolean;
  /** SANDBOX_BUILD_DELAY_MS (3000): how long the sandbox provisioning takes before a build starts. */
  readonly sandboxBuildDelayMs: number;
  /** MONITOR_INTERVAL_MS (a day): how often a watched domain is checked. */
  readonly monitorIntervalMs: number;
  /** JOBS_SWEEP_INTERVAL_MS (30 s): how often each instance looks for work the fast path missed. */
  readonly sweepIntervalMs: number;
  /** JOBS_CONCURRENCY (4): jobs run at once per instance. */
  readonly concurrency: number;
  /** JOBS_POLL_INTERVAL_MS (500 in-process; graphile-worker is woken by NOTIFY and polls every 2 s). */
  readonly pollIntervalMs: number;
  /** WEBHOOK_RETRY_BASE_MS (30 s): the first retry's wait; each next one doubles, up to an hour. */
  readonly webhookRetryBaseMs: number;
  /** WEBHOOK_RETRY_FOR_MS (a day): how long a delivery is retried before it is marked failed. */
  readonly webhookRetryForMs: number;
  /** WEBHOOK_TIMEOUT_MS (10 s): the whole of one delivery attempt (connect, headers and body). */
  readonly webhookTimeoutMs: number;
  /** WEBHOOK_CONCURRENCY (4): webhook deliveries run at once per instance, in slots of their own (not JOBS_CONCURRENCY's). */
  readonly webhookConcurrency: number;
  /** WEBHOOK_ACCOUNT_CONCURRENCY (2): attempts of one account in flight at once, across all instances. */
  readonly webhookAccountConcurrency: number;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 lets endpoints on private addresses (tests only). */
  readonly webhookAllowPrivate: boolean;
  /** SMTP_URL (smtp://user:pass@host:587); unset, alerts go to the log and ALERT_OUTBOX_DIR. */
  readonly smtpUrl: string | null;
  readonly alertFrom: string;
  readonly outboxDir: string;
  /**
   * JOB_LEASE_MS (60 s, PostgreSQL): a worker not heard from for this long is taken for dead and the
   * jobs it holds are unlocked for another instance. Workers report every few seconds (a quarter of
   * it, at most 5 s), so it must be longer than a pause of the event loop, not longer than a job.
   */
  readonly leaseMs: number;
  /** JOB_TEST_PAUSE (tests only): `point:ms,...`, a job's first attempt waits that long at that fault point. */
  readonly testPauses: ReadonlyMap<string, number>;
}

function pauses(raw: string | undefined): ReadonlyMap<string, number> {
  const found = new Map<string, number>();
  for (const item of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^([a-z_]+):(\d+)$/.exec(item);
    if (!match) throw new Error(`JOB_TEST_PAUSE must be "point:milliseconds" items separated by commas (tests only), not "${item}".`);
    found.set(match[1]!, Number(match[2]));
  }
  return found;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min} (milliseconds or a count), not "${raw}".`);
  return value;
}

export function jobsConfigFromEnv(env: NodeJS.ProcessEnv = process.env): JobsConfig {
  const flag = (value: string | undefined) => ['1', 'true', 'yes'].includes((value ?? '').trim().toLowerCase());
  const jobs = (env.JOBS ?? '').trim().toLowerCase();
  if (jobs !== '' && jobs !== 'on' && jobs !== 'off') throw new Error(`JOBS must be "on" or "off", not "${env.JOBS}".`);
  const smtpUrl = (env.SMTP_URL ?? '').trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://.');
  return {
    enabled: jobs !== 'off',
    sandboxBuildDelayMs: whole(env, 'SANDBOX_BUILD_DELAY_MS', 3000),
    monitorIntervalMs: whole(env, 'MONITOR_INTERVAL_MS', 86_400_000, 1000),
    sweepIntervalMs: whole(env, 'JOBS_SWEEP_INTERVAL_MS', 30_000, 50),
    concurrency: whole(env, 'JOBS_CONCURRENCY', 4, 1),
    pollIntervalMs: whole(env, 'JOBS_POLL_INTERVAL_MS', 500, 10),
    webhookRetryBaseMs: whole(env, 'WEBHOOK_RETRY_BASE_MS', 30_000, 10),
    webhookRetryForMs: whole(env, 'WEBHOOK_RETRY_FOR_MS', 86_400_000, 1000),
    webhookTimeoutMs: whole(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100),
    webhookConcurrency: whole(env, 'WEBHOOK_CONCURRENCY', 4, 1),
    webhookAccountConcurrency: whole(env, 'WEBHOOK_ACCOUNT_CONCURRENCY', 2, 1),
    webhookAllowPrivate: flag(env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES),
    smtpUrl,
    alertFrom: (env.ALERT_FROM ?? '').trim() || 'alerts@localhost',
    // Beside the embedded database by default, so a DATA_DIR elsewhere keeps its mail with it.
    outboxDir: (env.ALERT_OUTBOX_DIR ?? '').trim() || `${(env.DATA_DIR || './data').replace(/\/+$/, '')}/outbox`,
    leaseMs: whole(env, 'JOB_LEASE_MS', 60_000, 1000),
    testPauses: pauses(env.JOB_TEST_PAUSE),
  };
}
