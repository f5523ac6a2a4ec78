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
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 lets endpoints on private addresses (tests only). */
  readonly webhookAllowPrivate: boolean;
  /** SMTP_URL (smtp://user:pass@host:587); unset, alerts go to the log and ALERT_OUTBOX_DIR. */
  readonly smtpUrl: string | null;
  readonly alertFrom: string;
  readonly outboxDir: string;
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
    webhookAllowPrivate: flag(env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES),
    smtpUrl,
    alertFrom: (env.ALERT_FROM ?? '').trim() || 'alerts@localhost',
    outboxDir: (env.ALERT_OUTBOX_DIR ?? '').trim() || './data/outbox',
  };
}
