import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * `npm run codegen` first prints the sorted schema to schema.graphql (scripts/print-schema.ts: the
 * Pothos schema is TypeScript that codegen's own loader cannot import) and every row's operation
 * document (printed from the operation table), then types those documents (operations/documents/*.graphql)
 * into operations/generated/operations.ts: GraphQL's answer to each, which a test or a frontend reads
 * as REST answers it through Wire<T> (operations/wire-type.ts). All are committed;
 * test/schema/printed-schema.test.ts fails when one is stale.
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
