import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Every environment variable the service reads, in one zod schema: each is parsed once, at start,
 * into a typed value, and a wrong one stops the start with a sentence naming it (all wrong ones at
 * once). Nothing outside config/ reads process.env; the composed settings (config/settings.ts) are
 * handed down. docs/configuration.md's Environment table lists exactly these names (test/docs/environment-table.test.ts).
 */

/** A variable that is unset or blank is absent: operators clear a setting with `NAME=`. */
function given(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * A SECRETS_KEY value (or the old key given to `admin rotate-secrets --from`): 32 bytes as hex (64
 * characters) or base64 (44); null for anything else.
 */
export function parseSecretsKey(value: string): Buffer | null {
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  return key?.length === 32 ? key : null;
}

type Ctx = z.RefinementCtx;
function refuse(ctx: Ctx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** A whole number of at least `min` (and at most `max`), `fallback` when unset. */
function wholeNumber(name: string, fallback: number, min: number, unit: string, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const text = given(raw);
      if (text === undefined) return fallback;
      const value = Number(text);
      if (!Number.isInteger(value) || value < min || value > max)
        return refuse(
          ctx,
          `${name} must be a whole number ${max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`} (${unit}), not "${raw}".`,
        );
      return value;
    });
}

/** A whole number, or undefined when unset (the code's own default applies). */
function optionalWholeNumber(name: string, min: number, unit: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const text = given(raw);
      if (text === undefined) return undefined;
      const value = Number(text);
      if (!Number.isInteger(value) || value < min) return refuse(ctx, `${name} must be a whole number of at least ${min} (${unit}), not "${raw}".`);
      return value;
    });
}

function port(name: string, fallback: number, min = 0) {
  return wholeNumber(name, fallback, min, 'a port number', 65535);
}

/** 1, true or yes (any case) is on; anything else, or unset, is off. */
function flag() {
  return z
    .string()
    .optional()
    .transform((raw) => ['1', 'true', 'yes'].includes((raw ?? '').trim().toLowerCase()));
}

function choice<const T extends string>(name: string, values: readonly T[], fallback: T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      const text = given(raw)?.toLowerCase();
      if (text === undefined) return fallback;
      const found = values.find((v) => v === text);
      return found ?? refuse(ctx, `${name} must be ${values.map((v) => `"${v}"`).join(' or ')}, not "${raw}".`);
    });
}

/** Free text; `fallback` (or null) when unset. */
function text<T extends string | null>(fallback: T) {
  return z
    .string()
    .optional()
    .transform((raw) => given(raw) ?? fallback);
}

/** A URL whose scheme is one of `schemes`; null when unset. */
function url(name: string, schemes: readonly string[], what: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        return refuse(ctx, `${name} must be ${what}, not "${value}".`);
      }
      if (!schemes.includes(parsed.protocol.slice(0, -1))) return refuse(ctx, `${name} must be ${what}, not "${value}".`);
      return value;
    });
}

/** Comma-separated items; an empty list when unset. */
function list() {
  return z
    .string()
    .optional()
    .transform((raw) =>
      (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
}

/** The schema of the whole environment: one entry per variable, named as the operator sets it. */
export const environmentSchema = z.object({
  // Listeners and storage
  HOST: text('127.0.0.1'),
  PUBLIC_PORT: port('PUBLIC_PORT', 8080),
  API_PORT: port('API_PORT', 8081),
  PUBLIC_URL: text(null),
  API_URL: text(null),
  DATABASE_URL: url('DATABASE_URL', ['postgres', 'postgresql'], 'a postgres:// URL (or unset for the embedded database)'),
  DATA_DIR: text('./data'),
  NODE_ENV: text(null),
  // `silent` turns logs off (tests); any other value logs.
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((raw): 'info' | 'silent' => (given(raw) === 'silent' ? 'silent' : 'info')),
  LOG_REQUESTS: z
    .string()
    .optional()
    .transform((raw) => given(raw) !== '0'),
  METRICS_PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 65535) return refuse(ctx, `METRICS_PORT must be a port number from 0 to 65535, not "${raw}".`);
      return n;
    }),
  METRICS_HOST: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return '127.0.0.1';
      if (isIP(value) === 0 && value !== 'localhost')
        return refuse(ctx, `METRICS_HOST must be an IP address to bind (such as 127.0.0.1 or 0.0.0.0), not "${value}".`);
      return value;
    }),
  TRUSTED_PROXIES: list(),
  // Inboxes behind the domain (docs/mailboxes.md)
  FORWARD_PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 65535) return refuse(ctx, `FORWARD_PORT must be a port number from 0 to 65535, not "${raw}".`);
      return n;
    }),
  FORWARD_TLS_PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 65535) return refuse(ctx, `FORWARD_TLS_PORT must be a port number from 0 to 65535, not "${raw}".`);
      return n;
    }),
  FORWARD_TLS_CERT: text(null),
  FORWARD_TLS_KEY: text(null),
  // Certificates for forwarded domains over ACME (docs/mailboxes.md, "HTTPS")
  ACME_DIRECTORY_URL: url(
    'ACME_DIRECTORY_URL',
    ['https', 'http'],
    "an ACME directory URL (RFC 8555), such as Let's Encrypt's https://acme-v02.api.letsencrypt.org/directory",
  ),
  ACME_CA_FILE: text(null),
  ACME_EMAIL: text(null),
  ACME_RENEW_BEFORE_DAYS: wholeNumber('ACME_RENEW_BEFORE_DAYS', 30, 1, 'days', 3650),
  // DNS-01 through the domain's DNS connection (docs/mailboxes.md, "HTTPS"): off, HTTP-01 only.
  ACME_DNS01: choice('ACME_DNS01', ['on', 'off'], 'off'),
  ACME_DNS01_WAIT_SECONDS: wholeNumber('ACME_DNS01_WAIT_SECONDS', 300, 1, 'seconds', 3600),
  SANDBOX_SUSPENDED_MAILBOXES: list(),
  PROVISIONING: choice('PROVISIONING', ['sandbox', 'google'], 'sandbox'),
  GOOGLE_SERVICE_ACCOUNT_FILE: z
    .string()
    .optional()
    .transform((raw) => given(raw) ?? null),
  GOOGLE_ADMIN_SUBJECT: z
    .string()
    .optional()
    .transform((raw) => given(raw) ?? null),
  GOOGLE_DKIM_DIR: z
    .string()
    .optional()
    .transform((raw) => given(raw) ?? null),
  GOOGLE_API_BASE: z
    .string()
    .optional()
    .transform((raw) => given(raw) ?? null),
  GOOGLE_TOKEN_URL: z
    .string()
    .optional()
    .transform((raw) => given(raw) ?? null),
  SELF_SIGN_UP: choice('SELF_SIGN_UP', ['on', 'off'], 'on'),

  // Domain setup (docs/domain-setup.md)
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      const key = parseSecretsKey(value);
      if (key === null)
        return refuse(ctx, 'SECRETS_KEY must be 32 bytes written as base64 (44 characters) or hex (64 characters); make one with openssl rand -base64 32.');
      return key;
    }),
  REPORTS_DOMAIN: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const given_ = given(raw);
      if (given_ === undefined) return null;
      const value = given_.toLowerCase().replace(/\.$/, '');
      if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(value))
        return refuse(ctx, `REPORTS_DOMAIN must be a domain name such as reports.example.com, not "${raw}".`);
      return value;
    }),
  FORWARD_TARGET: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      if (!/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(value))
        return refuse(ctx, `FORWARD_TARGET must be an IPv4 address (the forwarding listener's), not "${raw}".`);
      return value;
    }),
  // Report ingestion (docs/reports.md)
  REPORTS_SMTP_PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 65535) return refuse(ctx, `REPORTS_SMTP_PORT must be a port number from 0 to 65535, not "${raw}".`);
      return n;
    }),
  REPORTS_SMTP_MAX_BYTES: wholeNumber('REPORTS_SMTP_MAX_BYTES', 10 * 1024 * 1024, 1024, 'bytes of one message', 50 * 1024 * 1024),
  REPORTS_RETENTION_DAYS: wholeNumber('REPORTS_RETENTION_DAYS', 180, 1, 'days', 3650),
  REPORTS_WORKERS: wholeNumber('REPORTS_WORKERS', 2, 1, 'worker threads', 64),
  REPORTS_QUEUE: wholeNumber('REPORTS_QUEUE', 8, 1, 'waiting reports', 10_000),
  REPORTS_SMTP_PER_ADDRESS: wholeNumber('REPORTS_SMTP_PER_ADDRESS', 3, 1, 'connections from one address', 1000),
  REPORTS_SMTP_MESSAGE_DEADLINE_MS: wholeNumber('REPORTS_SMTP_MESSAGE_DEADLINE_MS', 300_000, 100, 'milliseconds', 3_600_000),
  REPORTS_SMTP_MIN_BYTES_PER_SECOND: wholeNumber('REPORTS_SMTP_MIN_BYTES_PER_SECOND', 100, 1, 'bytes a second', 100_000_000),
  REPORTS_SMTP_RATE_WINDOW_MS: wholeNumber('REPORTS_SMTP_RATE_WINDOW_MS', 30_000, 100, 'milliseconds', 3_600_000),
  REPORTS_POSTMASTER_FORWARD: text(null),
  // PEM files of the report listener's certificate (with its chain) and private key: set both to offer STARTTLS.
  REPORTS_SMTP_TLS_CERT: text(null),
  REPORTS_SMTP_TLS_KEY: text(null),
  SETUP_TLS_RPT: z
    .string()
    .optional()
    .transform((raw) => ['1', 'true', 'yes', 'on'].includes((raw ?? '').trim().toLowerCase())),
  SETUP_RECHECK_FIRST_MS: wholeNumber('SETUP_RECHECK_FIRST_MS', 120_000, 50, 'milliseconds'),
  SETUP_RECHECK_MAX_MS: wholeNumber('SETUP_RECHECK_MAX_MS', 6 * 3_600_000, 50, 'milliseconds'),
  SETUP_RECHECK_LIVE_MS: wholeNumber('SETUP_RECHECK_LIVE_MS', 6 * 3_600_000, 50, 'milliseconds'),

  // Publishing records through customers' DNS connections (docs/domain-publishing.md)
  DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: choice('DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES', ['1', '0'], '0'),
  CLOUDFLARE_API_BASE: url('CLOUDFLARE_API_BASE', ['http', 'https'], 'an http(s):// address'),
  // "any", or the ports an RFC 2136 server may listen on (docs/domain-publishing.md); unset: 53 in production, any elsewhere.
  DNS_CONNECTIONS_PORTS: z
    .string()
    .optional()
    .transform((raw, ctx): readonly number[] | 'any' | null => {
      const text = given(raw);
      if (text === undefined) return null;
      if (text.toLowerCase() === 'any') return 'any';
      const ports = text.split(',').map((p) => p.trim());
      const wrong = ports.find((p) => !/^\d{1,5}$/.test(p) || Number(p) < 1 || Number(p) > 65535);
      if (wrong !== undefined)
        return refuse(
          ctx,
          `DNS_CONNECTIONS_PORTS must be "any" or port numbers (1 to 65535) separated by commas, such as 53,5353; "${wrong.slice(0, 20)}" is not one.`,
        );
      return [...new Set(ports.map(Number))];
    }),
  DNS_PUBLISH_TIMEOUT_MS: wholeNumber('DNS_PUBLISH_TIMEOUT_MS', 10_000, 100, 'milliseconds', 120_000),
  // Plans (docs/ordering.md): the skus are checked against the operator's plans at start (resolvers/account/default-plans.ts)
  DEFAULT_PLAN_SKUS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const text = given(raw) ?? 'google-inbox-unwarmed';
      if (text.toLowerCase() === 'none') return [];
      const plans: { readonly sku: string; readonly processorPriceId: string | null }[] = [];
      for (const entry of text.split(',')) {
        const [sku = '', price = ''] = entry.trim().split(':');
        if (price !== '' && !/^price_[A-Za-z0-9_]+$/.test(price))
          return refuse(ctx, `DEFAULT_PLAN_SKUS gives "${price}" as the Stripe Price of ${sku}; a Price id looks like price_1AbC... (or leave it out).`);
        if (!plans.some((p) => p.sku === sku)) plans.push({ sku, processorPriceId: price || null });
      }
      return plans;
    }),
  OPERATOR_EMAIL: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw) ?? 'operator@localhost';
      if (!/^[^\s@,<>"]+@[^\s@,<>"]+$/.test(value)) return refuse(ctx, `OPERATOR_EMAIL must be one e-mail address, such as ops@example.com, not "${value}".`);
      return value;
    }),

  // Checks
  DNS_SERVERS: list(),
  DNS_TIMEOUT_MS: wholeNumber('DNS_TIMEOUT_MS', 2000, 1, 'milliseconds'),
  DNS_TRIES: wholeNumber('DNS_TRIES', 2, 1, 'tries'),
  DNS_CONCURRENCY: wholeNumber('DNS_CONCURRENCY', 64, 1, 'questions'),
  DNS_QUESTIONS_PER_SOCKET: wholeNumber('DNS_QUESTIONS_PER_SOCKET', 100, 1, 'questions'),
  DNS_AUTHORITATIVE_PORT: port('DNS_AUTHORITATIVE_PORT', 53, 1),
  CHECKS_ALLOW_PRIVATE_ADDRESSES: flag(),
  CHECKS_HTTPS_PORT: port('CHECKS_HTTPS_PORT', 443, 1),
  // The bounds on one request that runs checks (docs/checks.md, "Limits on one request"): a keyless
  // caller must not turn one request into thousands of DNS questions at a third party's zone, a
  // many-megabyte answer, or work that outlives the connection. 400 questions: check-deliverability
  // asks 65 against the test fixture and the checks page (the grade plus ten checks) 71; a real domain
  // with several MX hosts, an SPF tree at RFC 7208's ten lookups and a DKIM scan stays under 300.
  // 20 s: the slowest legitimate single-domain check on a slow resolver (two 2 s tries on a dead name
  // server) ends well inside it. 4 MiB: a 5,000-address verify-email of 46-character addresses is
  // 1.6 MB; addresses three times as long still fit.
  CHECKS_DNS_BUDGET: wholeNumber('CHECKS_DNS_BUDGET', 400, 1, 'DNS questions per request'),
  CHECKS_DEADLINE_MS: wholeNumber('CHECKS_DEADLINE_MS', 20_000, 100, 'milliseconds'),
  CHECKS_MAX_ANSWER_BYTES: wholeNumber('CHECKS_MAX_ANSWER_BYTES', 4 * 1024 * 1024, 1024, 'bytes'),
  BIMI_EXTRA_ROOTS_FILE: text(null),
  SPAMHAUS_DQS_KEY: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const key = given(raw);
      if (key === undefined) return null;
      if (!/^[a-z0-9]{1,63}$/i.test(key)) return refuse(ctx, 'SPAMHAUS_DQS_KEY must be the letters and digits of a Spamhaus DQS key.');
      return key.toLowerCase();
    }),
  // How often the blocklists' RFC 5782 test points are probed in the background (jobs/probe-dnsbl-liveness.ts);
  // a probe older than twice this is stale, and a request then asks the test points itself.
  DNSBL_LIVENESS_INTERVAL_MS: wholeNumber('DNSBL_LIVENESS_INTERVAL_MS', 300_000, 1000, 'milliseconds'),
  RDAP_BOOTSTRAP_URL: url('RDAP_BOOTSTRAP_URL', ['http', 'https'], 'an http(s) URL'),
  WHOIS_SERVER: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(value);
      const portNumber = Number(match?.[2] ?? 43);
      if (!match?.[1] || portNumber < 1 || portNumber > 65535) return refuse(ctx, `WHOIS_SERVER must be "host" or "host:port", not "${value}".`);
      return { host: match[1], port: portNumber };
    }),
  REGISTRATION_TIMEOUT_MS: wholeNumber('REGISTRATION_TIMEOUT_MS', 5000, 1, 'milliseconds'),

  // Payments
  STRIPE_SECRET_KEY: text(null),
  STRIPE_WEBHOOK_SECRET: text(null),
  STRIPE_API_BASE: url('STRIPE_API_BASE', ['http', 'https'], 'an http(s) URL'),
  STRIPE_SETUP_CURRENCY: text('usd'),
  STRIPE_TIMEOUT_MS: wholeNumber('STRIPE_TIMEOUT_MS', 20_000, 1, 'milliseconds'),
  STRIPE_MAX_NETWORK_RETRIES: optionalWholeNumber('STRIPE_MAX_NETWORK_RETRIES', 0, 'retries'),

  // Allowances
  REDIS_URL: url('REDIS_URL', ['redis', 'rediss'], 'a redis:// or rediss:// URL'),
  REDIS_KEY_PREFIX: text('svc'),
  RATE_LIMIT_READ_PER_MINUTE: optionalWholeNumber('RATE_LIMIT_READ_PER_MINUTE', 1, 'requests'),
  PUBLIC_RATE_LIMIT_PER_MINUTE: optionalWholeNumber('PUBLIC_RATE_LIMIT_PER_MINUTE', 1, 'requests'),

  // Jobs, webhooks and mail
  JOBS: choice('JOBS', ['on', 'off'], 'on'),
  SANDBOX_BUILD_DELAY_MS: wholeNumber('SANDBOX_BUILD_DELAY_MS', 3000, 0, 'milliseconds'),
  MONITOR_INTERVAL_MS: wholeNumber('MONITOR_INTERVAL_MS', 86_400_000, 1000, 'milliseconds'),
  JOBS_SWEEP_INTERVAL_MS: wholeNumber('JOBS_SWEEP_INTERVAL_MS', 30_000, 50, 'milliseconds'),
  JOBS_CONCURRENCY: wholeNumber('JOBS_CONCURRENCY', 4, 1, 'jobs'),
  JOBS_POLL_INTERVAL_MS: wholeNumber('JOBS_POLL_INTERVAL_MS', 500, 10, 'milliseconds'),
  JOB_LEASE_MS: wholeNumber('JOB_LEASE_MS', 60_000, 1000, 'milliseconds'),
  WEBHOOK_RETRY_BASE_MS: wholeNumber('WEBHOOK_RETRY_BASE_MS', 30_000, 10, 'milliseconds'),
  WEBHOOK_RETRY_FOR_MS: wholeNumber('WEBHOOK_RETRY_FOR_MS', 86_400_000, 1000, 'milliseconds'),
  WEBHOOK_TIMEOUT_MS: wholeNumber('WEBHOOK_TIMEOUT_MS', 10_000, 100, 'milliseconds'),
  WEBHOOK_CONCURRENCY: wholeNumber('WEBHOOK_CONCURRENCY', 4, 1, 'deliveries'),
  WEBHOOK_ACCOUNT_CONCURRENCY: wholeNumber('WEBHOOK_ACCOUNT_CONCURRENCY', 2, 1, 'deliveries'),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag(),
  SMTP_URL: url('SMTP_URL', ['smtp', 'smtps'], 'an smtp:// or smtps:// URL'),
  ALERT_FROM: text('alerts@localhost'),
  ALERT_OUTBOX_DIR: text(null),

  // Test hooks: never set in production
  SERVICE_FAULT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = given(raw);
      if (value === undefined) return null;
      if (value !== 'exit_after_charge') return refuse(ctx, `SERVICE_FAULT must be unset or exit_after_charge (tests only), not "${value}".`);
      return value;
    }),
  IDEMPOTENCY_CLAIM_MS: wholeNumber('IDEMPOTENCY_CLAIM_MS', 120_000, 1, 'milliseconds'),
  JOB_TEST_PAUSE: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const found = new Map<string, number>();
      for (const item of (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const match = /^([a-z_]+):(\d+)$/.exec(item);
        if (!match) return refuse(ctx, `JOB_TEST_PAUSE must be "point:milliseconds" items separated by commas (tests only), not "${item}".`);
        found.set(match[1]!, Number(match[2]));
      }
      return found as ReadonlyMap<string, number>;
    }),
});

export type Environment = z.infer<typeof environmentSchema>;

/** The variables the service reads, as docs/configuration.md's Environment table must list them. */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(environmentSchema.shape);

/**
 * Reads the variables of `env` this service knows; a wrong value throws one Error whose message
 * holds every refusal, each a sentence naming its variable.
 */
export function readEnvironment(env: NodeJS.ProcessEnv): Environment {
  const known = Object.fromEntries(ENVIRONMENT_VARIABLES.map((name) => [name, env[name]]));
  const parsed = environmentSchema.safeParse(known);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join(' '));
  if ((parsed.data.REPORTS_SMTP_TLS_CERT === null) !== (parsed.data.REPORTS_SMTP_TLS_KEY === null))
    throw new Error(
      `REPORTS_SMTP_TLS_CERT and REPORTS_SMTP_TLS_KEY go together: set both (the certificate's and the private key's PEM files) to offer STARTTLS, or neither; only ${parsed.data.REPORTS_SMTP_TLS_CERT === null ? 'REPORTS_SMTP_TLS_KEY' : 'REPORTS_SMTP_TLS_CERT'} is set.`,
    );
  return parsed.data;
}
