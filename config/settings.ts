import { getServers } from 'node:dns';
import { isIP } from 'node:net';
import { parseDnsServerAddress } from './dns-server-address.js';
import { environmentSchema, readEnvironment, type Environment } from './environment.js';

/**
 * The service's settings, composed once at start from the environment (config/environment.ts) and
 * handed down: server/start-service.ts reads them before it opens anything, so a wrong value stops
 * the start at once with a sentence naming the variable. No other file reads process.env.
 */
export interface Settings {
  readonly service: ServiceConfig;
  readonly log: LogSettings;
  /** METRICS_PORT: unset, no metrics listener; 0 picks a free port (tests). */
  readonly metricsPort: number | null;
  /** FORWARD_PORT: unset, no forwarding listener; 0 picks a free port (tests). It binds HOST. */
  readonly forwardPort: number | null;
  /**
   * FORWARD_TLS_PORT, with ACME_DIRECTORY_URL (a certificate per forwarded domain) or with
   * FORWARD_TLS_CERT and FORWARD_TLS_KEY (one certificate for all), or both: the forwarding listener
   * over HTTPS too; null when unset.
   */
  readonly forwardTls: ForwardTlsConfig | null;
  /** METRICS_HOST: the address the metrics listener binds, 127.0.0.1 unless set (never HOST, which production opens to the network). */
  readonly metricsHost: string;
  /** TRUSTED_PROXIES: addresses of the operator's load balancers (checked to be IP addresses). */
  readonly trustedProxies: readonly string[];
  /** SELF_SIGN_UP (on): off closes POST /auth/sign-up. */
  readonly selfSignUp: boolean;
  /** The mode new keys are made in: test without STRIPE_SECRET_KEY (the sandbox processor), live with it. */
  readonly keyMode: 'test' | 'live';
  readonly dns: DnsSettings;
  readonly https: HttpsSettings;
  readonly blacklist: BlacklistConfig;
  readonly dnsblLiveness: DnsblLivenessSettings;
  readonly registration: RegistrationConfig;
  /** BIMI_EXTRA_ROOTS_FILE: a PEM file of extra Mark Verifying Authority roots (loaded at start by the services). */
  readonly extraMarkRootsFile: string | null;
  readonly checkLimits: CheckLimits;
  /** RATE_LIMIT_READ_PER_MINUTE and PUBLIC_RATE_LIMIT_PER_MINUTE, where set. */
  readonly rateLimits: { readonly read?: number; readonly public?: number };
  readonly redis: { readonly url: string; readonly keyPrefix: string } | null;
  /** null without STRIPE_SECRET_KEY: the embedded sandbox processor serves. */
  readonly stripe: StripeProcessorConfig | null;
  readonly jobs: JobsConfig;
  readonly publishing: PublishingConfig;
  readonly faults: FaultSettings;
  readonly reports: ReportsSettings;
}

/** Report ingestion (docs/reports.md). */
export interface ReportsSettings {
  /** REPORTS_SMTP_PORT: the SMTP listener for DMARC and TLS-RPT reports; null (unset) runs none; 0 picks a free port (tests). */
  readonly smtpPort: number | null;
  /** REPORTS_SMTP_MAX_BYTES (10 MiB): the largest message the listener takes. */
  readonly smtpMaxBytes: number;
  /** REPORTS_RETENTION_DAYS (180): reports whose period ended longer ago are deleted by the sweep. */
  readonly retentionDays: number;
  /** REPORTS_SMTP_TLS_CERT and REPORTS_SMTP_TLS_KEY: PEM files; with both, the listener offers STARTTLS; null: plain text only. */
  readonly smtpTls: { readonly certFile: string; readonly keyFile: string } | null;
  /** REPORTS_WORKERS (2): worker threads that unpack and parse reports; REPORTS_QUEUE (8): reports that may wait for one (past it: SMTP 451, REST 503). */
  readonly workers: number;
  readonly queue: number;
  /** REPORTS_SMTP_PER_ADDRESS (3): connections one remote address may hold open at once. */
  readonly smtpPerAddress: number;
  /** REPORTS_SMTP_MESSAGE_DEADLINE_MS (5 min): the longest one message's DATA may take. */
  readonly smtpMessageDeadlineMs: number;
  /** REPORTS_SMTP_MIN_BYTES_PER_SECOND (100) over each REPORTS_SMTP_RATE_WINDOW_MS (30 s): a slower connection is dropped. */
  readonly smtpMinBytesPerSecond: number;
  readonly smtpRateWindowMs: number;
  /** REPORTS_POSTMASTER_FORWARD: where mail to postmaster@<REPORTS_DOMAIN> is forwarded (through SMTP_URL); null: logged and dropped. */
  readonly postmasterForward: string | null;
}

/** The settings of publishing records through customers' DNS connections. */
export interface PublishingConfig {
  /** DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES=1: RFC 2136 servers on loopback and private networks (tests, a private deployment). */
  readonly allowPrivateAddresses: boolean;
  /** CLOUDFLARE_API_BASE: another Cloudflare-compatible API (the tests' fake); unset, Cloudflare's own. */
  readonly cloudflareApiBase: string | null;
  /** DNS_PUBLISH_TIMEOUT_MS (10000): how long one exchange with a DNS server or the Cloudflare API may take. */
  readonly timeoutMs: number;
  /**
   * DNS_CONNECTIONS_PORTS: the ports an RFC 2136 server may listen on; null for any. Unset, 53 only in
   * production (a customer's connection cannot aim this service at other services' ports) and any
   * port elsewhere (tests and local servers listen on high ports).
   */
  readonly allowedPorts: readonly number[] | null;
}

/** One entry of DEFAULT_PLAN_SKUS: a sku of the operator's plans and, with Stripe, the Price it charges. */
export interface DefaultPlan {
  readonly sku: string;
  readonly processorPriceId: string | null;
}

/** Where the listeners bind and how customers reach them. */
export interface ServiceConfig {
  readonly host: string;
  readonly publicPort: number;
  readonly apiPort: number;
  readonly publicUrl: string;
  readonly apiUrl: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly production: boolean;
  readonly maxBodyBytes: number;
  /**
   * SECRETS_KEY: the 32-byte AES-256-GCM key that seals secrets at rest (DKIM private keys, DNS
   * connection secrets). Outside production a fixed development key serves, so `npm start` needs
   * nothing; production refuses to start without one, since a key in the source protects nothing.
   */
  readonly secretsKey: Buffer;
  /** Whether secretsKey is the development default (shown at start-up). */
  readonly secretsKeyIsDefault: boolean;
  /** REPORTS_DOMAIN: DMARC aggregate reports go to dmarc@<it> (and TLS reports to tls-reports@<it>). */
  readonly reportsDomain: string;
  /** FORWARD_TARGET: the IPv4 address of the forwarding listener a domain's apex A record points at. */
  readonly forwardTarget: string;
  /** SETUP_TLS_RPT=1: each domain's setup also asks for a TLS-RPT record (optional, off by default). */
  readonly setupTlsRpt: boolean;
  /**
   * What the forwarding listener offers over HTTPS, as the setup's forwarding line says it: acme
   * (ACME_DIRECTORY_URL: a certificate per domain), certificate (FORWARD_TLS_CERT only: the operator's
   * one certificate), off (plain HTTP only).
   */
  readonly forwardHttps: 'acme' | 'certificate' | 'off';
  /**
   * How the jobs re-check a setup that is not ready (waiting_for_dns, needs_attention):
   * SETUP_RECHECK_FIRST_MS (2 minutes) after the first check, doubling each time up to
   * SETUP_RECHECK_MAX_MS (6 hours); a live domain every SETUP_RECHECK_LIVE_MS (6 hours).
   */
  readonly setupRecheck: { readonly firstMs: number; readonly maxMs: number; readonly liveMs: number };
  /** DEFAULT_PLAN_SKUS: the plans a new account starts on (resolvers/account/default-plans.ts checks the skus at start). */
  readonly defaultPlans: readonly DefaultPlan[];
  /** OPERATOR_EMAIL: where a customer's "ask for a plan" goes (default operator@localhost, the outbox without SMTP_URL). */
  readonly operatorEmail: string;
}

/** A development key, the same for everyone: only good for data nobody minds reading. */
const DEV_SECRETS_KEY = Buffer.from('dev-only-secrets-key-not-secret!', 'utf8');
/** Outside production only: a domain nobody's mail reaches, and the loopback address. */
const DEV_REPORTS_DOMAIN = 'reports.localhost';
const DEV_FORWARD_TARGET = '127.0.0.1';

export interface LogSettings {
  /** LOG_LEVEL=silent turns logs off (tests). */
  readonly silent: boolean;
  /** LOG_REQUESTS=0 drops the one line per request. */
  readonly requests: boolean;
}

export interface DnsSettings {
  /** "ip" or "ip:port" ("[v6]:port"), asked in turn, one per try: DNS_SERVERS, else the system's resolvers. */
  readonly servers: readonly string[];
  readonly timeoutMs: number;
  /** Attempts per question in total, cycling through `servers`. */
  readonly tries: number;
  /** Questions in flight at once, per request. */
  readonly concurrency: number;
  /** Questions a UDP socket carries before it is retired (1: a fresh socket per question). */
  readonly questionsPerSocket: number;
  /** The port direct questions to authoritative servers go to: 53, except in tests. */
  readonly authoritativePort: number;
}

export interface HttpsSettings {
  /** CHECKS_ALLOW_PRIVATE_ADDRESSES: lifts the public-address rule (tests reach 127.0.0.1 this way). Never in production. */
  readonly allowPrivate: boolean;
  /** CHECKS_HTTPS_PORT: port used when a URL names none; 443 in production. */
  readonly httpsPort: number;
}

/** Operator settings for the blocklist checks. */
export interface BlacklistConfig {
  /**
   * SPAMHAUS_DQS_KEY: a Spamhaus Data Query Service key. When set, Spamhaus zones are asked as
   * `<key>.zen.dq.spamhaus.net` and `<key>.dbl.dq.spamhaus.net`, which answer whatever resolver the
   * operator uses (the public mirrors refuse shared resolvers with 127.255.255.254).
   */
  readonly spamhausDqsKey: string | null;
}

/** The background probe of the blocklists' RFC 5782 test points (jobs/probe-dnsbl-liveness.ts). */
export interface DnsblLivenessSettings {
  /**
   * DNSBL_LIVENESS_INTERVAL_MS (5 minutes): how often the lists' test points are probed. A probe
   * stays fresh for twice this (one late run does not send every request back to asking); a stale or
   * missing one and each request asks the test points itself, as it did before the probe.
   */
  readonly intervalMs: number;
}

export const DEFAULT_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

/** Operator settings for the registration lookups. */
export interface RegistrationConfig {
  /** IANA's RDAP bootstrap file for domains (RFC 9224). RDAP_BOOTSTRAP_URL. */
  readonly rdapBootstrapUrl: string;
  /** WHOIS_SERVER "host:port": every WHOIS question goes there instead of the TLD's own server. */
  readonly whoisServer: { readonly host: string; readonly port: number } | null;
  /** Per HTTP request or WHOIS connection. REGISTRATION_TIMEOUT_MS, default 5000. */
  readonly timeoutMs: number;
  /**
   * CHECKS_ALLOW_PRIVATE_ADDRESSES=1: WHOIS servers learned from IANA may be private addresses
   * (tests only). Configured servers (WHOIS_SERVER, ianaWhois) are trusted and never vetted.
   */
  readonly allowPrivate: boolean;
  /** Where the TLD's WHOIS server is asked for: whois.iana.org:43. Tests point it at a local server. */
  readonly ianaWhois: { readonly host: string; readonly port: number };
  /** Port of the WHOIS servers IANA names: 43 (RFC 3912). Tests point it at a local server. */
  readonly referralPort: number;
}

export interface CheckLimits {
  /** DNS questions one request may put on the wire before bulk growth (CHECKS_DNS_BUDGET). */
  readonly dnsBudget: number;
  /** Wall time one request's checks may run (CHECKS_DEADLINE_MS). */
  readonly deadlineMs: number;
  /** Bytes of check answers (JSON) one request may return, all its checks together (CHECKS_MAX_ANSWER_BYTES). */
  readonly maxAnswerBytes: number;
}

export interface StripeProcessorConfig {
  readonly secretKey: string;
  /** `STRIPE_API_BASE`, e.g. http://127.0.0.1:12111 for the test fake or stripe-mock; null for api.stripe.com. */
  readonly apiBase: string | null;
  /** Per request; a request that takes longer is treated as "processor unreachable". */
  readonly timeoutMs: number;
  /** The SDK's own retries (same idempotency key). 0 against a local base so failures show at once. */
  readonly maxNetworkRetries: number;
  /** Checkout needs a currency in setup mode to pick the payment methods it offers. */
  readonly setupCurrency: string;
  /** `STRIPE_WEBHOOK_SECRET` (whsec_...), for verifyStripeWebhook; null when unset. */
  readonly webhookSecret?: string | null;
}

/**
 * The forwarding listener's HTTPS side (docs/mailboxes.md, "HTTPS"): a port, the certificates
 * obtained over ACME for each forwarded domain (chosen by SNI) and, where given, one operator
 * certificate with its key as PEM files, served to names without one of their own.
 */
export interface ForwardTlsConfig {
  /** FORWARD_TLS_PORT: 0 picks a free port (tests). It binds HOST. */
  readonly port: number;
  /** FORWARD_TLS_CERT: the certificate (chain) in PEM, naming the domains it serves (SANs or a wildcard); null: none. */
  readonly certFile: string | null;
  /** FORWARD_TLS_KEY: its private key in PEM; null with certFile. */
  readonly keyFile: string | null;
}

/**
 * FORWARD_TLS_PORT needs a certificate to serve: FORWARD_TLS_CERT with FORWARD_TLS_KEY, or the
 * ACME certificates (ACME_DIRECTORY_URL); the two files go together and need the port.
 */
function forwardTlsOf(e: Environment): ForwardTlsConfig | null {
  const files = [e.FORWARD_TLS_CERT, e.FORWARD_TLS_KEY].filter((v) => v !== null).length;
  if (e.FORWARD_TLS_PORT === null && files === 0) return null;
  if (e.FORWARD_TLS_PORT === null || files === 1 || (files === 0 && e.ACME_DIRECTORY_URL === null))
    throw new Error(
      'HTTPS forwarding needs all three of FORWARD_TLS_PORT, FORWARD_TLS_CERT (the certificate, PEM) and FORWARD_TLS_KEY (its key, PEM), or FORWARD_TLS_PORT with ACME_DIRECTORY_URL (a certificate per forwarded domain, obtained over ACME); set the missing ones or clear them (docs/mailboxes.md).',
    );
  return { port: e.FORWARD_TLS_PORT, certFile: e.FORWARD_TLS_CERT, keyFile: e.FORWARD_TLS_KEY };
}

/** Certificates for forwarded domains over ACME (RFC 8555), HTTP-01 on the forwarding listener (docs/mailboxes.md, "HTTPS"). */
export interface AcmeSettings {
  /** ACME_DIRECTORY_URL: the certificate authority's directory. */
  readonly directoryUrl: string;
  /** ACME_CA_FILE: PEM certificates trusted, beside Node's roots, for the directory's own HTTPS (a private or test ACME server); null: Node's roots only. */
  readonly caFile: string | null;
  /** ACME_EMAIL: the account's contact, where the authority writes about expiring certificates; null: none. */
  readonly email: string | null;
  /** ACME_RENEW_BEFORE_DAYS (30): a certificate is renewed once it has less than this left. */
  readonly renewBeforeMs: number;
  /**
   * ACME_DNS01=on: a domain whose records were published through one of its account's DNS connections
   * (the journal) proves control over DNS-01 through that connection; null (off): HTTP-01 only.
   * waitMs (ACME_DNS01_WAIT_SECONDS, 300): how long the challenge may take to reach every name server of the zone.
   */
  readonly dns01: { readonly waitMs: number } | null;
}

function acmeOf(e: Environment): AcmeSettings | null {
  if (e.ACME_DIRECTORY_URL === null) return null;
  return {
    directoryUrl: e.ACME_DIRECTORY_URL,
    caFile: e.ACME_CA_FILE,
    email: e.ACME_EMAIL,
    renewBeforeMs: e.ACME_RENEW_BEFORE_DAYS * 86_400_000,
    dns01: e.ACME_DNS01 === 'on' ? { waitMs: e.ACME_DNS01_WAIT_SECONDS * 1000 } : null,
  };
}

/** PROVISIONING=google: Google Workspace through the Directory API (docs/mailboxes.md). */
export interface GoogleProvisioningConfig {
  /** GOOGLE_SERVICE_ACCOUNT_FILE: the service account's JSON key (domain-wide delegation granted in the Admin console). */
  readonly serviceAccountFile: string;
  /** GOOGLE_ADMIN_SUBJECT: the Workspace admin the service account acts as. */
  readonly adminSubject: string;
  /** GOOGLE_DKIM_DIR: where the operator places <domain>.txt, the DKIM TXT value the Admin console made. */
  readonly dkimDir: string | null;
  /** GOOGLE_API_BASE (tests): another root for the Directory API than https://admin.googleapis.com/. */
  readonly apiBase: string | null;
  /** GOOGLE_TOKEN_URL (tests): another token endpoint than https://oauth2.googleapis.com/token. */
  readonly tokenUrl: string | null;
}

/** The jobs' settings. */
export interface JobsConfig {
  /** JOBS=off starts no workers in this process (the API still enqueues; another instance works). */
  readonly enabled: boolean;
  /** SANDBOX_BUILD_DELAY_MS (3000): how long the sandbox provisioning takes before a build starts. */
  readonly sandboxBuildDelayMs: number;
  /** PROVISIONING (sandbox): null builds with the sandbox; set, with Google Workspace. */
  readonly google: GoogleProvisioningConfig | null;
  /** SANDBOX_SUSPENDED_MAILBOXES (tests, demos): addresses the sandbox provider reports suspended once it has made them. */
  readonly sandboxSuspendedMailboxes: readonly string[];
  /** MONITOR_INTERVAL_MS (a day): how often a watched domain is checked. */
  readonly monitorIntervalMs: number;
  /** JOBS_SWEEP_INTERVAL_MS (30 s): how often each instance looks for work the fast path missed. */
  readonly sweepIntervalMs: number;
  /** ACME_DIRECTORY_URL and its settings: the sweep queues certificates for live forwarded domains; null: none are obtained. */
  readonly acme: AcmeSettings | null;
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
  /** REPORTS_RETENTION_DAYS (180): the sweep deletes DMARC and TLS-RPT reports whose period ended longer ago. */
  readonly reportsRetentionDays: number;
}

/** Test-only hooks: never set in production. */
export interface FaultSettings {
  /** SERVICE_FAULT=exit_after_charge: the process kills itself between the charge and the commit. */
  readonly serviceFault: 'exit_after_charge' | null;
  /** IDEMPOTENCY_CLAIM_MS (120 s): how long a placement holds its Idempotency-Key before another may take over. */
  readonly idempotencyClaimMs: number;
}

function googleProvisioning(e: Environment): GoogleProvisioningConfig | null {
  if (e.PROVISIONING !== 'google') return null;
  if (e.GOOGLE_SERVICE_ACCOUNT_FILE === null || e.GOOGLE_ADMIN_SUBJECT === null)
    throw new Error(
      'PROVISIONING=google needs GOOGLE_SERVICE_ACCOUNT_FILE (the service account JSON key) and GOOGLE_ADMIN_SUBJECT (the Workspace admin it acts as); see docs/mailboxes.md.',
    );
  return {
    serviceAccountFile: e.GOOGLE_SERVICE_ACCOUNT_FILE,
    adminSubject: e.GOOGLE_ADMIN_SUBJECT,
    dkimDir: e.GOOGLE_DKIM_DIR,
    apiBase: e.GOOGLE_API_BASE,
    tokenUrl: e.GOOGLE_TOKEN_URL,
  };
}

/** Reads and checks every setting of `env` at once; throws one Error naming every wrong variable. */
export function readSettings(env: NodeJS.ProcessEnv): Settings {
  const e = readEnvironment(env);
  const trustedProxies = e.TRUSTED_PROXIES;
  const notIp = trustedProxies.find((entry) => isIP(entry) === 0);
  if (notIp !== undefined) throw new Error(`TRUSTED_PROXIES must list IP addresses separated by commas; "${notIp}" is not one.`);
  const servers = e.DNS_SERVERS.length > 0 ? e.DNS_SERVERS : getServers();
  if (servers.length === 0) throw new Error('No DNS resolver is configured: set DNS_SERVERS, such as 127.0.0.1:53.');
  servers.forEach(parseDnsServerAddress);
  return {
    service: serviceConfigOf(e),
    log: { silent: e.LOG_LEVEL === 'silent', requests: e.LOG_REQUESTS },
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    forwardPort: e.FORWARD_PORT,
    forwardTls: forwardTlsOf(e),
    trustedProxies,
    selfSignUp: e.SELF_SIGN_UP === 'on',
    keyMode: e.STRIPE_SECRET_KEY === null ? 'test' : 'live',
    dns: {
      servers,
      timeoutMs: e.DNS_TIMEOUT_MS,
      tries: e.DNS_TRIES,
      concurrency: e.DNS_CONCURRENCY,
      questionsPerSocket: e.DNS_QUESTIONS_PER_SOCKET,
      authoritativePort: e.DNS_AUTHORITATIVE_PORT,
    },
    https: { allowPrivate: e.CHECKS_ALLOW_PRIVATE_ADDRESSES, httpsPort: e.CHECKS_HTTPS_PORT },
    blacklist: { spamhausDqsKey: e.SPAMHAUS_DQS_KEY },
    dnsblLiveness: { intervalMs: e.DNSBL_LIVENESS_INTERVAL_MS },
    registration: {
      rdapBootstrapUrl: e.RDAP_BOOTSTRAP_URL ?? DEFAULT_RDAP_BOOTSTRAP_URL,
      whoisServer: e.WHOIS_SERVER,
      timeoutMs: e.REGISTRATION_TIMEOUT_MS,
      allowPrivate: e.CHECKS_ALLOW_PRIVATE_ADDRESSES,
      ianaWhois: { host: 'whois.iana.org', port: 43 },
      referralPort: 43,
    },
    extraMarkRootsFile: e.BIMI_EXTRA_ROOTS_FILE,
    checkLimits: { dnsBudget: e.CHECKS_DNS_BUDGET, deadlineMs: e.CHECKS_DEADLINE_MS, maxAnswerBytes: e.CHECKS_MAX_ANSWER_BYTES },
    rateLimits: {
      ...(e.RATE_LIMIT_READ_PER_MINUTE !== undefined && { read: e.RATE_LIMIT_READ_PER_MINUTE }),
      ...(e.PUBLIC_RATE_LIMIT_PER_MINUTE !== undefined && { public: e.PUBLIC_RATE_LIMIT_PER_MINUTE }),
    },
    redis: e.REDIS_URL === null ? null : { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    stripe:
      e.STRIPE_SECRET_KEY === null
        ? null
        : {
            secretKey: e.STRIPE_SECRET_KEY,
            apiBase: e.STRIPE_API_BASE,
            timeoutMs: e.STRIPE_TIMEOUT_MS,
            maxNetworkRetries: e.STRIPE_MAX_NETWORK_RETRIES ?? (e.STRIPE_API_BASE ? 0 : 1),
            setupCurrency: e.STRIPE_SETUP_CURRENCY.toLowerCase(),
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          },
    jobs: {
      enabled: e.JOBS === 'on',
      sandboxBuildDelayMs: e.SANDBOX_BUILD_DELAY_MS,
      sandboxSuspendedMailboxes: e.SANDBOX_SUSPENDED_MAILBOXES.map((a) => a.toLowerCase()),
      google: googleProvisioning(e),
      monitorIntervalMs: e.MONITOR_INTERVAL_MS,
      sweepIntervalMs: e.JOBS_SWEEP_INTERVAL_MS,
      acme: acmeOf(e),
      concurrency: e.JOBS_CONCURRENCY,
      pollIntervalMs: e.JOBS_POLL_INTERVAL_MS,
      webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      webhookRetryForMs: e.WEBHOOK_RETRY_FOR_MS,
      webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
      webhookConcurrency: e.WEBHOOK_CONCURRENCY,
      webhookAccountConcurrency: e.WEBHOOK_ACCOUNT_CONCURRENCY,
      webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
      smtpUrl: e.SMTP_URL,
      alertFrom: e.ALERT_FROM,
      // Beside the embedded database by default, so a DATA_DIR elsewhere keeps its mail with it.
      outboxDir: e.ALERT_OUTBOX_DIR ?? `${e.DATA_DIR.replace(/(?<!\/)\/+$/, '')}/outbox`,
      leaseMs: e.JOB_LEASE_MS,
      testPauses: e.JOB_TEST_PAUSE,
      reportsRetentionDays: e.REPORTS_RETENTION_DAYS,
    },
    publishing: {
      allowPrivateAddresses: e.DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES === '1',
      cloudflareApiBase: e.CLOUDFLARE_API_BASE === null ? null : e.CLOUDFLARE_API_BASE.replace(/\/$/, ''),
      timeoutMs: e.DNS_PUBLISH_TIMEOUT_MS,
      allowedPorts: e.DNS_CONNECTIONS_PORTS === 'any' ? null : (e.DNS_CONNECTIONS_PORTS ?? (e.NODE_ENV === 'production' ? [53] : null)),
    },
    faults: { serviceFault: e.SERVICE_FAULT, idempotencyClaimMs: e.IDEMPOTENCY_CLAIM_MS },
    reports: {
      smtpPort: e.REPORTS_SMTP_PORT,
      smtpMaxBytes: e.REPORTS_SMTP_MAX_BYTES,
      retentionDays: e.REPORTS_RETENTION_DAYS,
      workers: e.REPORTS_WORKERS,
      queue: e.REPORTS_QUEUE,
      smtpPerAddress: e.REPORTS_SMTP_PER_ADDRESS,
      smtpMessageDeadlineMs: e.REPORTS_SMTP_MESSAGE_DEADLINE_MS,
      smtpMinBytesPerSecond: e.REPORTS_SMTP_MIN_BYTES_PER_SECOND,
      smtpRateWindowMs: e.REPORTS_SMTP_RATE_WINDOW_MS,
      postmasterForward: e.REPORTS_POSTMASTER_FORWARD,
      smtpTls:
        e.REPORTS_SMTP_TLS_CERT !== null && e.REPORTS_SMTP_TLS_KEY !== null ? { certFile: e.REPORTS_SMTP_TLS_CERT, keyFile: e.REPORTS_SMTP_TLS_KEY } : null,
    },
  };
}

const SERVICE_VARIABLES = {
  HOST: true,
  PUBLIC_PORT: true,
  API_PORT: true,
  PUBLIC_URL: true,
  API_URL: true,
  DATABASE_URL: true,
  DATA_DIR: true,
  NODE_ENV: true,
  SECRETS_KEY: true,
  REPORTS_DOMAIN: true,
  FORWARD_TARGET: true,
  SETUP_TLS_RPT: true,
  ACME_DIRECTORY_URL: true,
  FORWARD_TLS_CERT: true,
  SETUP_RECHECK_FIRST_MS: true,
  SETUP_RECHECK_MAX_MS: true,
  SETUP_RECHECK_LIVE_MS: true,
  DEFAULT_PLAN_SKUS: true,
  OPERATOR_EMAIL: true,
} as const;

/**
 * The listeners' part of the settings alone, from those variables only (`npm start` prints where it
 * listens before the rest is read; tests change ports and the database before starting).
 */
export function serviceConfigFromEnv(env: NodeJS.ProcessEnv): ServiceConfig {
  const parsed = environmentSchema.pick(SERVICE_VARIABLES).safeParse(Object.fromEntries(Object.keys(SERVICE_VARIABLES).map((name) => [name, env[name]])));
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join(' '));
  return serviceConfigOf(parsed.data);
}

function serviceConfigOf(e: Pick<Environment, keyof typeof SERVICE_VARIABLES>): ServiceConfig {
  const host = e.HOST;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const production = e.NODE_ENV === 'production';
  if (production) {
    // Each missing variable named at once: a development default here would seal secrets with a
    // public key, send customers' DMARC reports nowhere, or publish A 127.0.0.1 over their website.
    const missing = [
      e.SECRETS_KEY === null &&
        'SECRETS_KEY must be set when NODE_ENV=production: 32 random bytes as base64 or hex (openssl rand -base64 32); it seals secrets at rest.',
      e.REPORTS_DOMAIN === null &&
        "REPORTS_DOMAIN must be set when NODE_ENV=production: the domain whose dmarc@ address receives customers' DMARC aggregate reports (e.g. reports.example.com).",
      e.FORWARD_TARGET === null &&
        "FORWARD_TARGET must be set when NODE_ENV=production: the public IPv4 address of the forwarding listener, which applies publish as each forwarding domain's apex A record.",
    ].filter((m): m is string => typeof m === 'string');
    if (missing.length > 0) throw new Error(missing.join(' '));
  }
  return {
    host,
    publicPort: e.PUBLIC_PORT,
    apiPort: e.API_PORT,
    publicUrl: e.PUBLIC_URL ?? `http://${urlHost}:${e.PUBLIC_PORT}`,
    apiUrl: e.API_URL ?? `http://${urlHost}:${e.API_PORT}`,
    databaseUrl: e.DATABASE_URL ?? undefined,
    dataDir: e.DATA_DIR,
    production,
    maxBodyBytes: 1024 * 1024,
    secretsKey: e.SECRETS_KEY ?? DEV_SECRETS_KEY,
    secretsKeyIsDefault: e.SECRETS_KEY === null,
    reportsDomain: e.REPORTS_DOMAIN ?? DEV_REPORTS_DOMAIN,
    forwardTarget: e.FORWARD_TARGET ?? DEV_FORWARD_TARGET,
    setupTlsRpt: e.SETUP_TLS_RPT,
    forwardHttps: e.ACME_DIRECTORY_URL !== null ? 'acme' : e.FORWARD_TLS_CERT !== null ? 'certificate' : 'off',
    setupRecheck: { firstMs: e.SETUP_RECHECK_FIRST_MS, maxMs: e.SETUP_RECHECK_MAX_MS, liveMs: e.SETUP_RECHECK_LIVE_MS },
    defaultPlans: e.DEFAULT_PLAN_SKUS,
    operatorEmail: e.OPERATOR_EMAIL,
  };
}
