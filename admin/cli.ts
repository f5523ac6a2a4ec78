import { openDatabase, DatabaseInUseError } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { readSettings } from '../config/settings.js';
import { checkDefaultPlans } from '../resolvers/account/default-plans.js';
import { checkAdminArgs, runAdminCommand, type AdminOutcome } from './run-admin-command.js';
import { sendAdminCommand } from './admin-socket.js';

/**
 * Operator commands: `npm run --silent admin -- <command> [options]`. Each prints one JSON object on
 * stdout; a refusal prints {"error": sentence} on stderr and exits 1. With embedded PGlite held by a
 * running `npm start`, the command is handed to that process over its admin socket.
 */
const args = process.argv.slice(2);
const print = (outcome: AdminOutcome): never => {
  if (outcome.ok) {
    process.stdout.write(JSON.stringify(outcome.result) + '\n');
    process.exit(0);
  }
  process.stderr.write(JSON.stringify({ error: outcome.error }) + '\n');
  process.exit(1);
};

const refused = checkAdminArgs(args);
if (refused) print({ ok: false, error: refused.error });

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
let settings;
try {
  settings = readSettings(process.env);
} catch (error) {
  print({ ok: false, error: errorText(error) });
}
const config = settings!.service;
try {
  checkDefaultPlans(config.defaultPlans);
} catch (error) {
  print({ ok: false, error: errorText(error) });
}
let database;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof DatabaseInUseError) {
    const handed = await sendAdminCommand(config.dataDir, args);
    print(handed ?? { ok: false, error: `${error.message} (its admin socket did not answer, so the command could not be handed to it).` });
  }
  print({ ok: false, error: `Could not open the database: ${errorText(error)}` });
}
let outcome: AdminOutcome;
try {
  await migrateToLatest(database!.db);
  outcome = await runAdminCommand(database!.db, args, {
    keyMode: settings!.keyMode,
    jobLeaseMs: settings!.jobs.leaseMs,
    defaultPlans: config.defaultPlans,
    secretsKey: config.secretsKey,
  });
} catch (error) {
  outcome = { ok: false, error: errorText(error) };
} finally {
  await database!.close();
}
print(outcome!);
