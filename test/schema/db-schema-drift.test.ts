/**
 * db/schema.ts (the Kysely table types, kept by hand) against the migrated database: every table the
 * migrations make is in `Database` and nothing else is; each table's columns are the interface's
 * fields, one for one; a column is nullable exactly when its type admits null; a field written
 * Generated<…> or CreatedAt has a default in the database; and each column's type family (text,
 * number, boolean, time, JSON) is what the field's selected type says. A migration that adds, drops,
 * renames or retypes a column without the same edit to db/schema.ts fails here. kysely-codegen is not
 * installed, so the types are compared rather than generated.
 *
 * db/schema.ts is read as text: its interfaces are one field per line (`name: Type;`, a type may run
 * on over lines to the `;`), which is how the file is written.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../db/open-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

type Family = 'text' | 'number' | 'boolean' | 'time' | 'json';

interface DeclaredColumn {
  readonly nullable: boolean;
  readonly generated: boolean;
  readonly family: Family | 'unknown';
  readonly type: string;
}

interface DbColumn {
  readonly table: string;
  readonly column: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  readonly dataType: string;
}

/**
 * The family a PostgreSQL type reaches TypeScript as, through pg and PGlite alike: bigint and numeric
 * come as text (they may not fit a JS number), so do uuid and the character types.
 */
const FAMILY_OF_DB_TYPE: Record<string, Family> = {
  text: 'text',
  'character varying': 'text',
  character: 'text',
  uuid: 'text',
  bigint: 'text',
  numeric: 'text',
  bytea: 'text',
  inet: 'text',
  integer: 'number',
  smallint: 'number',
  real: 'number',
  'double precision': 'number',
  boolean: 'boolean',
  'timestamp with time zone': 'time',
  'timestamp without time zone': 'time',
  jsonb: 'json',
  json: 'json',
};

/**
 * A DATE reads as a string on PGlite and a Date on pg (db/dmarc-report-rows.ts, dayText, reads
 * either); db/schema.ts types the day columns as their 'YYYY-MM-DD' text. Either family is taken.
 */
const DATE_FAMILIES: readonly Family[] = ['text', 'time'];

const source = readFileSync(fileURLToPath(new URL('../../db/schema.ts', import.meta.url)), 'utf8');

/** The top-level `export interface Name { ... }` blocks, comments removed, by name. */
function interfaces(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const withoutComments = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => (line.includes('//') ? line.slice(0, line.indexOf('//')) : line))
    .join('\n');
  for (const match of withoutComments.matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)) found.set(match[1]!, match[2]!);
  return found;
}

function fields(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of body.matchAll(/^ {2}(\w+)\??: ([^;]+);/gm)) out.set(match[1]!, match[2]!.replace(/\s+/g, ' ').trim());
  return out;
}

/** The type Kysely selects for a field, with whether the database fills it by default. */
function declared(type: string): DeclaredColumn {
  let selected = type;
  let generated = false;
  const generatedMatch = /^Generated<(.+)>$/.exec(selected);
  if (generatedMatch) {
    generated = true;
    selected = generatedMatch[1]!;
  }
  if (selected === 'CreatedAt') {
    generated = true;
    selected = 'Date';
  }
  if (selected === 'Timestamp') selected = 'Date';
  if (selected === 'Timestamp | null') selected = 'Date | null';
  const columnType = /^ColumnType<(.+?), /.exec(selected);
  if (columnType) selected = columnType[1]!;
  const parts = selected.split('|').map((p) => p.trim());
  const nullable = parts.includes('null');
  const rest = parts.filter((p) => p !== 'null');
  return { nullable, generated, family: familyOf(rest), type };
}

/** Named types of db/status-values.ts and quoted literals are text; a JSON column is typed by what it holds. */
function familyOf(parts: readonly string[]): Family | 'unknown' {
  if (parts.every((p) => p === 'string' || /^'.*'$/.test(p) || /^[A-Z]\w*(Status|State)$/.test(p))) return 'text';
  if (parts.every((p) => p === 'number')) return 'number';
  if (parts.every((p) => p === 'boolean')) return 'boolean';
  if (parts.every((p) => p === 'Date')) return 'time';
  if (parts.some((p) => p.startsWith('Json') || p.startsWith('unknown') || p.startsWith('Record<') || p.startsWith('{') || p.endsWith('[]'))) return 'json';
  return 'unknown';
}

const blocks = interfaces(source);
const databaseFields = fields(blocks.get('Database') ?? '');

let testDatabase: TestDatabase;
let opened: OpenedDatabase;
let dbColumns: DbColumn[];

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  opened = await openDatabase({ databaseUrl: testDatabase.databaseUrl, dataDir: testDatabase.dataDir, pglite: await testDatabase.pglite() });
  const result = await sql<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    data_type: string;
  }>`
    select c.table_name, c.column_name, c.is_nullable, c.column_default, c.is_identity, c.data_type
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(opened.db);
  dbColumns = result.rows.map((r) => ({
    table: r.table_name,
    column: r.column_name,
    nullable: r.is_nullable === 'YES',
    hasDefault: r.column_default !== null || r.is_identity === 'YES',
    dataType: r.data_type,
  }));
});
afterAll(async () => {
  await opened?.close();
  await testDatabase?.drop();
});

/** The migrations' own bookkeeping, which the service reads through Kysely's migrator, not db/schema.ts. */
const NOT_IN_SCHEMA = new Set(['kysely_migration', 'kysely_migration_lock']);

describe('db/schema.ts matches the migrated database', () => {
  it('parses db/schema.ts (the Database interface and a table interface per entry)', () => {
    expect(databaseFields.size).toBeGreaterThan(40);
    for (const [table, interfaceName] of databaseFields) expect(blocks.has(interfaceName), `${table}: interface ${interfaceName} not found`).toBe(true);
  });

  it('has the same tables', () => {
    const inDatabase = [...new Set(dbColumns.map((c) => c.table))].filter((t) => !NOT_IN_SCHEMA.has(t)).sort();
    expect([...databaseFields.keys()].sort()).toEqual(inDatabase);
  });

  it.each([...databaseFields.entries()])('%s (%s): the same columns, nullability, defaults and type families', (table, interfaceName) => {
    const declaredColumns = new Map([...fields(blocks.get(interfaceName) ?? '')].map(([name, type]) => [name, declared(type)] as const));
    const actual = dbColumns.filter((c) => c.table === table);
    expect([...declaredColumns.keys()].sort(), 'column names').toEqual(actual.map((c) => c.column).sort());
    const mismatches: string[] = [];
    for (const column of actual) {
      const field = declaredColumns.get(column.column);
      if (!field) continue;
      const family = column.dataType === 'date' && DATE_FAMILIES.includes(field.family as Family) ? field.family : FAMILY_OF_DB_TYPE[column.dataType];
      if (field.nullable !== column.nullable)
        mismatches.push(`${column.column}: the database says ${column.nullable ? 'nullable' : 'not null'}, db/schema.ts says ${field.type}`);
      if (field.generated && !column.hasDefault) mismatches.push(`${column.column}: db/schema.ts says ${field.type}, but the column has no default`);
      if (family === undefined)
        mismatches.push(`${column.column}: the database type ${column.dataType} has no family in this test; add it to FAMILY_OF_DB_TYPE`);
      else if (field.family !== family)
        mismatches.push(`${column.column}: the database type ${column.dataType} reads as ${family}, db/schema.ts says ${field.type} (${field.family})`);
    }
    expect(mismatches).toEqual([]);
  });
});
