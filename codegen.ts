import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * `npm run codegen` first prints the sorted schema to schema.graphql (scripts/print-schema.ts: the
 * Pothos schema is TypeScript that codegen's own loader cannot import), then types every operation
 * document of the operation table (operations/documents/*.graphql) into operations/generated/operations.ts, so a
 * test or a frontend reads a REST answer with its exact snake_case type. Both are committed;
 * test/schema/printed-schema.test.ts fails when either is stale.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['operations/documents/*.graphql'],
  generates: {
    'operations/generated/operations.ts': {
      plugins: ['typescript', 'typescript-operations'],
      config: {
        onlyOperationTypes: true,
        avoidOptionals: true,
        skipTypename: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', SpfRecordTree: 'unknown', ProviderCounts: 'Record<string, number>' },
      },
    },
  },
};

export default config;
