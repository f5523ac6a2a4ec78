import { parseArgs } from 'node:util';
import { openDatabase, DatabaseInUseError } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { serviceConfigFromEnv } from '../resolvers/service-config.js';
import { adminCommands } from './commands.js';

/**
 * Operator commands: `npm run --silent admin -- <command> [options]`. Each prints one JSON object on
 * stdout; a refusal prints {"error": sentence} on stderr and exits 1.
 */
const [command, ...rest] = process.argv.slice(2);
const fail = (message: string): never => {
  process.stderr.write(JSON.stringify({ error: message }) + '\n');
  process.exit(1);
};

const spec = adminCommands[command as keyof typeof adminCommands];
if (!spec) fail(`Unknown command "${command ?? ''}". Commands: ${Object.keys(adminCommands).join(', ')}.`);

let values: Record<string, string | undefined> = {};
try {
  values = parseArgs({ args: rest, options: spec!.options, strict: true }).values as Record<string, string | undefined>;
} catch (error) {
  fail(`${(error as Error).message}. Usage: ${spec!.usage}`);
}

const config = serviceConfigFromEnv();
let database;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
} catch (error) {
  fail(error instanceof DatabaseInUseError ? error.message : `Could not open the database: ${(error as Error).message}`);
}
const db = database!.db;
try {
  await migrateToLatest(db);
  const result = await spec!.run(db, values, fail);
  process.stdout.write(JSON.stringify(result) + '\n');
} catch (error) {
  fail((error as Error).message);
} finally {
  await database!.close();
}
