import './v8-settings.js';
import { serviceConfigFromEnv } from '../config/settings.js';
import { DatabaseInUseError } from '../db/open-database.js';
import { startService } from './start-service.js';
import { log } from '../observability/log.js';

// `npm start`: both listeners on the embedded defaults; SIGTERM/SIGINT finish in-flight requests first.
try {
  const config = serviceConfigFromEnv(process.env);
  const service = await startService(config, { seedWhenEmpty: true });
  process.stdout.write(`Public checks API: ${service.publicUrl}\nAccount API:       ${service.apiUrl}\n`);
  if (service.reportsSmtpPort !== null)
    process.stdout.write(`Reports SMTP:      ${config.host}:${service.reportsSmtpPort} (dmarc@ and tls-reports@${config.reportsDomain})\n`);
  process.stdout.write(`Database:          ${service.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}\n`);
  if (service.demoKey) {
    process.stdout.write(
      `\nA demo account was created. Its API key (shown once, all three scopes):\n  ${service.demoKey}\n` +
        `Try:  curl -H "Authorization: Bearer ${service.demoKey}" ${service.apiUrl}/v1/portal/dashboard\n`,
    );
    if (service.demoUser) {
      process.stdout.write(
        `Its owner signs in to the portal at ${service.apiUrl}/portal/ (or POST ${service.apiUrl}/auth/sign-in), shown once:\n  e-mail:   ${service.demoUser.email}\n  password: ${service.demoUser.password}\n`,
      );
    }
    process.stdout.write('\n');
  }
  const shutdown = (signal: string) => {
    log('info', 'shutting down', { signal });
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  const message = error instanceof DatabaseInUseError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`Could not start: ${message}\n`);
  process.exit(1);
}
