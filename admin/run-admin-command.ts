import type { KeyMode } from '../resolvers/auth/api-keys.js';
import type { DefaultPlan } from '../config/settings.js';

/** What the commands take from the settings (config/settings.ts): the mode new keys are made in, the job lease. */
export interface AdminSettings {
  readonly keyMode: KeyMode;
  readonly jobLeaseMs: number;
  readonly defaultPlans: readonly DefaultPlan[];
  /**
   * SECRETS_KEY as the command line read it, for rotate-secrets. Absent over the admin socket: a
   * running service keeps its own key in memory, so a rotation waits until it is stopped.
   */
  readonly secretsKey?: Buffer;
}
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { adminCommands } from './commands.js';

export type AdminOutcome = { readonly ok: true; readonly result: Record<string, unknown> } | { readonly ok: false; readonly error: string };

/** Thrown by a command's `fail`, so one refusal ends the command wherever it is. */
class AdminRefusal extends Error {}

/** Looks the command up and checks its options; a refusal names what to change. */
export function checkAdminArgs(args: readonly string[]): { readonly error: string } | null {
  const [command, ...rest] = args;
  const spec = adminCommands[command ?? ''];
  if (!spec) return { error: `Unknown command "${command ?? ''}". Commands: ${Object.keys(adminCommands).join(', ')}.` };
  try {
    parseArgs({ args: rest, options: spec.options, strict: true });
  } catch (error) {
    return { error: `${error instanceof Error ? error.message : String(error)}. Usage: ${spec.usage}` };
  }
  return null;
}

/**
 * Runs one operator command (`create-key --account 1 --scopes read`) against a database. Used by the
 * command line with its own connection, and by the running service for a command handed over its
 * admin socket (embedded PGlite serves one process).
 */
export async function runAdminCommand(db: Kysely<Database>, args: readonly string[], settings: AdminSettings): Promise<AdminOutcome> {
  const refused = checkAdminArgs(args);
  if (refused) return { ok: false, error: refused.error };
  const [command, ...rest] = args;
  const spec = adminCommands[command!]!;
  // A flag (a boolean option) reads as "true", so every command sees its options as text.
  const parsed = parseArgs({ args: rest, options: spec.options, strict: true }).values;
  const values = Object.fromEntries(
    Object.entries(parsed).map(([name, value]) => [name, value === true ? 'true' : typeof value === 'string' ? value : undefined]),
  );
  const fail = (message: string): never => {
    throw new AdminRefusal(message);
  };
  try {
    return { ok: true, result: await spec.run(db, values, fail, settings) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
