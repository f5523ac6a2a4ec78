import { openDatabase, DatabaseInUseError } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { serviceConfigFromEnv } from '../resolvers/service-config.js';
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

const config = serviceConfigFromEnv();
let database;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof DatabaseInUseError) {
    const handed = await sendAdminCommand(config.dataDir, args);
    print(handed ?? { ok: false, error: `${error.message} (its admin socket did not answer, so the command could not be handed to it).` });
  }
  print({ ok: false, error: `Could not open the database: ${(error as Error).message}` });
}
let outcome: AdminOutcome;
try {
  await migrateToLatest(database!.db);
  outcome = await runAdminCommand(database!.db, args);
} catch (error) {
  outcome = { ok: false, error: (error as Error).message };
} finally {
  await database!.close();
}
print(outcome!);
