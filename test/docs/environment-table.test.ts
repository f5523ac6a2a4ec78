import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings, serviceConfigFromEnv } from '../../config/settings.js';
import { ENVIRONMENT_VARIABLES } from '../../config/environment.js';
import { startService } from '../../server/start-service.js';
import { repoRoot } from '../support/spawn-server.js';

/** Variables Node or the platform reads itself: documented in the table, never read by our code. */
const READ_BY_NODE = new Set(['NODE_EXTRA_CA_CERTS']);

/** The names in the first column of docs/configuration.md's Environment table. */
function variablesInReadme(): Set<string> {
  const readme = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Environment'));
  const table = section.slice(0, section.indexOf('\n## ') > 0 ? section.indexOf('\n## ') : undefined);
  const names = new Set<string>();
  for (const line of table.split('\n').filter((l) => l.startsWith('| `'))) {
    for (const m of line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return names;
}

describe('configuration in one place', () => {
  it('reports every wrong variable at once, each in a sentence naming it', () => {
    expect(() => readSettings({ DNS_TRIES: 'x', JOBS: 'maybe', SMTP_URL: 'http://mail' })).toThrow(
      /DNS_TRIES must be a whole number.*JOBS must be "on" or "off".*SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
  });

  // config/environment.ts is the one place the environment is read (oxlint's node/no-process-env
  // refuses process.env elsewhere), so its schema is the list of variables.
  it("docs/configuration.md's Environment table lists exactly the variables config/environment.ts reads", () => {
    const read = new Set(ENVIRONMENT_VARIABLES);
    const documented = variablesInReadme();
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((n) => !documented.has(n)).sort()).toEqual([]);
    expect([...documented].filter((n) => !read.has(n) && !READ_BY_NODE.has(n)).sort()).toEqual([]);
  });

  // Each whole-number setting, given a word, stops the start with a sentence naming it.
  const WHOLE_NUMBERS = [
    'PUBLIC_PORT',
    'API_PORT',
    'DNS_TIMEOUT_MS',
    'DNS_TRIES',
    'DNS_CONCURRENCY',
    'DNS_QUESTIONS_PER_SOCKET',
    'DNS_AUTHORITATIVE_PORT',
    'CHECKS_HTTPS_PORT',
    'CHECKS_DNS_BUDGET',
    'CHECKS_DEADLINE_MS',
    'CHECKS_MAX_ANSWER_BYTES',
    'REGISTRATION_TIMEOUT_MS',
    'RATE_LIMIT_READ_PER_MINUTE',
    'PUBLIC_RATE_LIMIT_PER_MINUTE',
    'IDEMPOTENCY_CLAIM_MS',
    'STRIPE_TIMEOUT_MS',
    'STRIPE_MAX_NETWORK_RETRIES',
  ];
  for (const name of WHOLE_NUMBERS) {
    it(`${name}=lots stops the start with a sentence naming ${name}`, async () => {
      // The Stripe settings are read only when Stripe is configured.
      const stripe = name.startsWith('STRIPE_') ? 'sk_test_environment' : '';
      const env = { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', STRIPE_SECRET_KEY: stripe, [name]: 'lots' };
      // On a data folder that does not exist yet: opening the database would make it, so its absence
      // shows the start was refused before the database opened (no stopwatch).
      const dataDir = join(tmpdir(), `environment-table-${process.pid}-${name.toLowerCase()}`);
      const start = async () => {
        const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: undefined, dataDir };
        const running = await startService(config, { env });
        await running.stop();
      };
      await expect(start()).rejects.toThrow(name);
      expect(existsSync(dataDir)).toBe(false);
    });
  }

  it('SERVICE_FAULT other than the one known hook stops the start', async () => {
    const env = { ...process.env, LOG_LEVEL: 'silent', SERVICE_FAULT: 'exit_after_chrage' };
    const config = { ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, databaseUrl: undefined, dataDir: 'memory' };
    await expect(startService(config, { env })).rejects.toThrow('SERVICE_FAULT must be unset or exit_after_charge');
  });
});
