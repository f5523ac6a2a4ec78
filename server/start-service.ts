import type { Server } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase, type OpenedDatabase } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { hasAnyAccount } from '../db/accounts.js';
import { seedDemo } from '../admin/seed-demo.js';
import { readSettings, type ServiceConfig } from '../config/settings.js';
import { checkDefaultPlans } from '../resolvers/account/default-plans.js';
import type { Services } from '../resolvers/context.js';
import { createServices, type ServiceOverrides } from './create-services.js';
import { createGraphqlServer, type Yoga } from './create-yoga.js';
import { createApiApp } from './api-app.js';
import { createOAuthRoutes } from './oauth-routes.js';
import { createPublicApp, PUBLIC_CORS } from './public-app.js';
import { serveHttp, settleInFlight, type FetchHandler } from './serve-http.js';
import { trustedProxySet } from './client-address.js';
import { serveAdminSocket } from '../admin/admin-socket.js';
import { configureLog, log } from '../observability/log.js';
import { startJobs, type RunningJobs } from '../jobs/start-jobs.js';
import { serveMetrics } from './serve-metrics.js';
import { loadForwardingTls, serveForwarding, serveForwardingTls } from './serve-forwarding.js';
import { serveReportSmtp } from './serve-report-smtp.js';
import { createReportPool, type ReportPool } from '../resolvers/reports/report-pool.js';
import { bodyLimitsByRoute } from './body-limits-by-route.js';
import { operationTable } from '../operations/operation-table.js';
import { createAlertMailer } from '../clients/mail/create-alert-mailer.js';
import { createDemoUser, type DemoUser } from '../admin/seed-demo-user.js';
import { checkSecretsKey } from '../resolvers/secrets/secrets-canary.js';

export interface RunningService {
  readonly publicUrl: string;
  readonly apiUrl: string;
  readonly services: Services;
  readonly database: OpenedDatabase;
  readonly yoga: Yoga;
  /** The demo key when this start seeded an empty embedded database, else null. */
  readonly demoKey: string | null;
  /** The demo person's e-mail and password when this start seeded, else null. */
  readonly demoUser: DemoUser | null;
  /** This instance's background work (builds, monitoring, webhooks, alerts). */
  readonly jobs: RunningJobs;
  /** The forwarding listener's URL when FORWARD_PORT is set, else null. */
  readonly forwardUrl: string | null;
  /** The forwarding listener's HTTPS URL when FORWARD_TLS_PORT is set, else null. */
  readonly forwardTlsUrl: string | null;
  /** The metrics listener's URL when METRICS_PORT is set, else null. */
  readonly metricsUrl: string | null;
  /** The report SMTP listener's port when REPORTS_SMTP_PORT is set, else null (docs/reports.md). */
  readonly reportsSmtpPort: number | null;
  /** The two listeners' web-standard handlers, as serve-http.ts calls them (tests call them without a socket). */
  readonly handlers: { readonly public: FetchHandler; readonly api: FetchHandler };
  /** Stops taking connections, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

export interface StartOptions extends ServiceOverrides {
  /** Seed the demo account when the embedded database is new (npm start does; tests decide). */
  readonly seedWhenEmpty?: boolean;
  /** Tests: faults to raise once inside jobs (jobs/job-types.ts). */
  readonly jobFaults?: Set<string>;
  /** Tests: an open, migrated in-memory PGlite to use (test/support/pglite-pool.ts lends them; db/open-database.ts). */
  readonly pglite?: PGlite | undefined;
}

/**
 * How long a stop waits for handlers still running without a connection: past the payment
 * processor's 20 s cap on a placement, within the 30 s a container platform usually allows.
 */
const HANDLER_GRACE_MS = 25_000;

/** Opens and migrates the database, then serves both listeners. Ports 0 pick free ports (tests). */
export async function startService(config: ServiceConfig, options: StartOptions = {}): Promise<RunningService> {
  // Every setting is read and checked once, before anything opens: a wrong value costs the operator
  // no waiting, and nothing below reads the environment again.
  const settings = readSettings(options.env ?? process.env);
  checkDefaultPlans(config.defaultPlans);
  const forwardTls = settings.forwardTls === null ? null : loadForwardingTls(settings.forwardTls);
  configureLog(settings.log);
  if (config.secretsKeyIsDefault) {
    // Production refuses to start without one (config/settings.ts); elsewhere say so at every start.
    log(
      'warn',
      'SECRETS_KEY is unset: the development key is in use, and it is public (in the source). Secrets sealed now are readable by anyone with a copy of the database; set SECRETS_KEY (openssl rand -base64 32) and move to it with admin rotate-secrets (docs/operations.md, "Rotating SECRETS_KEY").',
    );
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pglite: options.pglite });
  let startedJobs: RunningJobs | undefined;
  let reportPool: ReportPool | undefined;
  try {
    const migrated = await migrateToLatest(database.db);
    if (migrated.length > 0) log('info', 'database migrated', { migrations: migrated });
    // Another key than the one the secrets were sealed with stops here, with a sentence, rather than
    // as 500s on every sealed secret later.
    await checkSecretsKey(database.db, config.secretsKey, config.secretsKeyIsDefault);
    let demoKey: string | null = null;
    let demoUser: DemoUser | null = null;
    if (options.seedWhenEmpty && database.kind === 'pglite') {
      if (!(await hasAnyAccount(database.db))) {
        const demo = await seedDemo(database.db, settings.keyMode);
        demoKey = demo.key;
        demoUser = await createDemoUser(database.db, demo.accountId);
      }
    }
    const baseServices = createServices(database, config, settings, options);
    await baseServices.rateLimits.ready();
    const jobs = await startJobs(baseServices, database, { config: settings.jobs, faults: options.jobFaults ?? new Set() });
    startedJobs = jobs;
    const mailer = createAlertMailer(settings.jobs.smtpUrl, settings.jobs.alertFrom, settings.jobs.outboxDir);
    reportPool = createReportPool({ threads: settings.reports.workers, queue: settings.reports.queue });
    const services: Services = {
      ...baseServices,
      jobs: jobs.hooks,
      mailer,
      selfSignUp: settings.selfSignUp,
      mailboxProvider: jobs.environment.adapter,
      reportPool,
    };
    const metrics = settings.metricsPort === null ? null : await serveMetrics(settings.metricsPort, settings.metricsHost);
    const forwarding = settings.forwardPort === null ? null : await serveForwarding(database.db, settings.forwardPort, config.host);
    const forwardingTls = forwardTls === null ? null : await serveForwardingTls(database.db, forwardTls, config.secretsKey, config.host);
    const reportsSmtp =
      settings.reports.smtpPort === null
        ? null
        : await serveReportSmtp({
            port: settings.reports.smtpPort,
            host: config.host,
            reportsDomain: config.reportsDomain,
            maxBytes: settings.reports.smtpMaxBytes,
            tls: settings.reports.smtpTls,
            db: database.db,
            pool: reportPool,
            dkimDnsServers: settings.dns.servers,
            limits: {
              perAddress: settings.reports.smtpPerAddress,
              messageDeadlineMs: settings.reports.smtpMessageDeadlineMs,
              minBytesPerSecond: settings.reports.smtpMinBytesPerSecond,
              rateWindowMs: settings.reports.smtpRateWindowMs,
            },
            postmaster: settings.reports.postmasterForward === null ? null : { forwardTo: settings.reports.postmasterForward, mailer },
          });
    const yoga = createGraphqlServer({ graphiql: !config.production });
    const trustedProxies = trustedProxySet(settings.trustedProxies);
    const handlers = {
      public: createPublicApp(services, createGraphqlServer({ graphiql: !config.production, audience: 'public' })),
      api: createApiApp(services, yoga),
    };
    const publicServer = serveHttp(handlers.public, {
      maxBodyBytes: config.maxBodyBytes,
      name: 'public',
      trustedProxies,
      logRequests: settings.log.requests,
      ownAnswerHeaders: PUBLIC_CORS,
    });
    // The MCP sign-in's authorization server (oidc-provider, a Koa app) answers its own paths on Node's request.
    const oauth = createOAuthRoutes(services, trustedProxies);
    const apiServer = serveHttp(handlers.api, {
      maxBodyBytes: config.maxBodyBytes,
      bodyLimitsByRoute: bodyLimitsByRoute(operationTable),
      name: 'api',
      trustedProxies,
      logRequests: settings.log.requests,
      nodeRoute: oauth.route,
    });
    const publicPort = await listen(publicServer, config.publicPort, config.host);
    const apiPort = await listen(apiServer, config.apiPort, config.host);
    // Embedded PGlite serves this process only: operator commands reach it over a local socket.
    const adminSocket =
      database.kind === 'pglite' && config.dataDir !== 'memory'
        ? await serveAdminSocket(database.db, config.dataDir, {
            keyMode: settings.keyMode,
            jobLeaseMs: settings.jobs.leaseMs,
            defaultPlans: config.defaultPlans,
          }).catch((error: Error) => {
            log('warn', 'admin socket not started: operator commands must wait until the service stops', { reason: error.message });
            return null;
          })
        : null;
    const urlHost = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
    let stopping: Promise<void> | undefined;
    return {
      publicUrl: config.publicPort === 0 ? `http://${urlHost}:${publicPort}` : config.publicUrl,
      apiUrl: config.apiPort === 0 ? `http://${urlHost}:${apiPort}` : config.apiUrl,
      services,
      database,
      yoga,
      demoKey,
      demoUser,
      jobs,
      handlers,
      forwardUrl: forwarding ? `http://${urlHost}:${forwarding.port}` : null,
      forwardTlsUrl: forwardingTls ? `https://${urlHost}:${forwardingTls.port}` : null,
      metricsUrl: metrics
        ? `http://${settings.metricsHost.includes(':') ? `[${settings.metricsHost}]` : settings.metricsHost === '0.0.0.0' ? '127.0.0.1' : settings.metricsHost}:${metrics.port}/metrics`
        : null,
      reportsSmtpPort: reportsSmtp?.port ?? null,
      stop: () =>
        (stopping ??= (async () => {
          await Promise.all([
            close(publicServer),
            close(apiServer),
            metrics ? close(metrics.server) : undefined,
            forwarding ? close(forwarding.server) : undefined,
            forwardingTls ? close(forwardingTls.server) : undefined,
            reportsSmtp?.close(),
            adminSocket ? new Promise<void>((done) => adminSocket.close(() => done())) : undefined,
          ]);
          // Handlers whose caller hung up hold no connection, so close() did not wait for them; they
          // finish (a placement past its charge records its order) before the database closes.
          await Promise.all([settleInFlight(publicServer, HANDLER_GRACE_MS), settleInFlight(apiServer, HANDLER_GRACE_MS)]);
          // In-flight jobs finish (graphile-worker releases its locks) before the database closes.
          await jobs.stop().catch(() => {});
          // The report threads end once every listener is shut (a report being read finishes first).
          await services.reportPool?.close().catch(() => {});
          mailer.close();
          await services.rateLimits.close().catch(() => {});
          await database.close().catch(() => {});
        })()),
    };
  } catch (error) {
    await reportPool?.close().catch(() => {});
    await startedJobs?.stop().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** close() waits for in-flight requests; idle keep-alive sockets are closed so it does not wait on them. */
function close(server: Pick<Server, 'close' | 'closeIdleConnections'>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
