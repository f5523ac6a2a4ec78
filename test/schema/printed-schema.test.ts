import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { declaredSchema, publicSchema, schema } from '../../schema/index.js';
import { readdirSync } from 'node:fs';
import { operationTable } from '../../operations/operation-table.js';
import { PRINTED_HEADER, printOperationDocument } from '../../operations/print-operation-document.js';

const committed = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the printed schema', () => {
  it('schema.graphql is current (run `npm run codegen` after changing the schema)', () => {
    expect(committed('schema.graphql')).toBe(printSchema(schema) + '\n');
  });

  it("schema.public.graphql, the public listener's checks-only schema, is current", () => {
    expect(committed('schema.public.graphql')).toBe(printSchema(publicSchema) + '\n');
  });

  it("every row's operation document is printed from the operation table and the schema, and current", () => {
    for (const row of operationTable)
      expect(committed(`operations/documents/${row.document}.graphql`), row.name).toBe(printOperationDocument(declaredSchema, row));
  });

  it("operations/documents holds no document written by hand: each file is a row's, and says it is printed", () => {
    const files = readdirSync(new URL('../../operations/documents/', import.meta.url)).filter((f) => f.endsWith('.graphql'));
    expect(files.sort()).toEqual([...new Set(operationTable.map((row) => `${row.document}.graphql`))].sort());
    for (const file of files) expect(committed(`operations/documents/${file}`).split('\n')[0], file).toBe(PRINTED_HEADER);
  });
});

describe('the typed operations', () => {
  it('operations/generated/operations.ts is current (graphql-codegen --check; run `npm run codegen`)', () => {
    // --check exits non-zero when generating would change the committed file.
    expect(() =>
      execFileSync('npx', ['graphql-codegen', '--config', 'codegen.ts', '--check'], { cwd: new URL('../../', import.meta.url), stdio: 'pipe' }),
    ).not.toThrow();
  }, 60_000);
});
