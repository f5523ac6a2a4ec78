import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../../schema/index.js';

describe('the printed schema', () => {
  it('schema.graphql is current (run `npm run schema` after changing the schema)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printSchema(schema) + '\n');
  });
});
