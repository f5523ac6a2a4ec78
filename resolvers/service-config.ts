/** Settings read once from the environment at start; bad values stop the start with a sentence. */
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
   * SECRETS_KEY: the 32-byte AES-256-GCM key that seals secrets at rest (DKIM private keys). Outside
   * production a fixed development key serves, so `npm start` needs nothing; production refuses to
   * start without one, since a key in the source protects nothing.
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
   * How the jobs re-check a setup that is not ready (waiting_for_dns, needs_attention):
   * SETUP_RECHECK_FIRST_MS (2 minutes) after the first check, doubling each time up to
   * SETUP_RECHECK_MAX_MS (6 hours); a live domain every SETUP_RECHECK_LIVE_MS (6 hours).
   */
  readonly setupRecheck: { readonly firstMs: number; readonly maxMs: number; readonly liveMs: number };
}

function millis(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of milliseconds, at least ${min}, not "${raw}".`);
  return value;
}

/** A development key, the same for everyone: only good for data nobody minds reading. */
const DEV_SECRETS_KEY = Buffer.from('dev-only-secrets-key-not-secret!', 'utf8');

function secretsKey(env: NodeJS.ProcessEnv, production: boolean): { key: Buffer; isDefault: boolean } {
  const raw = (env.SECRETS_KEY ?? '').trim();
  if (raw === '') {
    if (production)
      throw new Error('SECRETS_KEY must be set in production: 32 random bytes as 64 hex digits or base64 (openssl rand -hex 32); it seals secrets at rest.');
    return { key: DEV_SECRETS_KEY, isDefault: true };
  }
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes: 64 hex digits or 44 base64 characters (openssl rand -hex 32).');
  return { key, isDefault: false };
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number from 0 to 65535, not "${raw}".`);
  return value;
}

export function serviceConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const host = env.HOST || '127.0.0.1';
  const publicPort = port(env, 'PUBLIC_PORT', 8080);
  const apiPort = port(env, 'API_PORT', 8081);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error('DATABASE_URL must start with postgres:// (or be unset for the embedded database).');
  const production = env.NODE_ENV === 'production';
  const secrets = secretsKey(env, production);
  const reportsDomain = (env.REPORTS_DOMAIN ?? '').trim().toLowerCase().replace(/\.$/, '') || 'reports.localhost';
  if (!HOST_NAME.test(reportsDomain)) throw new Error(`REPORTS_DOMAIN must be a domain name such as reports.example.com, not "${env.REPORTS_DOMAIN}".`);
  const forwardTarget = (env.FORWARD_TARGET ?? '').trim() || '127.0.0.1';
  if (!IPV4.test(forwardTarget)) throw new Error(`FORWARD_TARGET must be an IPv4 address (the forwarding listener's), not "${env.FORWARD_TARGET}".`);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    host,
    publicPort,
    apiPort,
    publicUrl: env.PUBLIC_URL || `http://${urlHost}:${publicPort}`,
    apiUrl: env.API_URL || `http://${urlHost}:${apiPort}`,
    databaseUrl,
    dataDir: env.DATA_DIR || './data',
    production,
    maxBodyBytes: 1024 * 1024,
    secretsKey: secrets.key,
    secretsKeyIsDefault: secrets.isDefault,
    reportsDomain,
    forwardTarget,
    setupTlsRpt: ['1', 'true', 'yes', 'on'].includes((env.SETUP_TLS_RPT ?? '').trim().toLowerCase()),
    setupRecheck: {
      firstMs: millis(env, 'SETUP_RECHECK_FIRST_MS', 120_000, 50),
      maxMs: millis(env, 'SETUP_RECHECK_MAX_MS', 6 * 3_600_000, 50),
      liveMs: millis(env, 'SETUP_RECHECK_LIVE_MS', 6 * 3_600_000, 50),
    },
  };
}
