import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { declaredSchema, publicSchema, schema } from '../../schema/index.js';
import { checkDeclarations } from '../../schema/check-declarations.js';
import { checkDocument } from '../../schema/check-document.js';

const committed = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the printed schema', () => {
  it('schema.graphql is current (run `npm run codegen` after changing the schema)', () => {
    expect(committed('schema.graphql')).toBe(printSchema(schema) + '\n');
  });

  it("schema.public.graphql, the public listener's checks-only schema, is current", () => {
    expect(committed('schema.public.graphql')).toBe(printSchema(publicSchema) + '\n');
  });

  it("each check's operation document is printed from its answer type and current", () => {
    for (const d of checkDeclarations) expect(committed(`operations/documents/${d.name}.graphql`), d.name).toBe(checkDocument(declaredSchema, d));
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
