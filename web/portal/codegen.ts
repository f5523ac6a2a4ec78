import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * The portal's documents, typed from the account schema (schema.graphql at the root, printed by
 * `npm run codegen`). Each page writes its operations with `graphql(...)` from src/gql; this config
 * generates that function and the result types into src/gql/ (not committed: scripts/build-portal.ts
 * runs it before every build, and `npm install` runs the build).
 */
const config: CodegenConfig = {
  schema: '../../schema.graphql',
  documents: ['src/**/*.tsx', 'src/**/*.ts', '!src/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string', SpfRecordTree: 'unknown', ProviderCounts: 'Record<string, number>' } },
    },
  },
};

export default config;
