import { defaultPlansFromEnv, type DefaultPlan } from './account/default-plans.js';

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
  /** DEFAULT_PLAN_SKUS: the plans a new account starts on (resolvers/account/default-plans.ts). */
  readonly defaultPlans: readonly DefaultPlan[];
  /** OPERATOR_EMAIL: where a customer's "ask for a plan" goes (default operator@localhost, the outbox without SMTP_URL). */
  readonly operatorEmail: string;
}

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
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    host,
    publicPort,
    apiPort,
    publicUrl: env.PUBLIC_URL || `http://${urlHost}:${publicPort}`,
    apiUrl: env.API_URL || `http://${urlHost}:${apiPort}`,
    databaseUrl,
    dataDir: env.DATA_DIR || './data',
    production: env.NODE_ENV === 'production',
    maxBodyBytes: 1024 * 1024,
    defaultPlans: defaultPlansFromEnv(env),
    operatorEmail: operatorEmailFromEnv(env),
  };
}

function operatorEmailFromEnv(env: NodeJS.ProcessEnv): string {
  const raw = (env.OPERATOR_EMAIL ?? '').trim();
  if (raw === '') return 'operator@localhost';
  if (!/^[^\s@,<>"]+@[^\s@,<>"]+$/.test(raw)) throw new Error(`OPERATOR_EMAIL must be one e-mail address, such as ops@example.com, not "${raw}".`);
  return raw;
}
