import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../../schema/index.js';

describe('the printed schema', () => {
  it('schema.graphql is current (run `npm run codegen` after changing the schema)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printSchema(schema) + '\n');
  });
});

describe('the typed operations', () => {
  it('rest/generated/operations.ts is current (graphql-codegen --check; run `npm run codegen`)', () => {
    // --check exits non-zero when generating would change the committed file.
    expect(() => execFileSync('npx', ['graphql-codegen', '--config', 'codegen.ts', '--check'], { cwd: new URL('../../', import.meta.url), stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
