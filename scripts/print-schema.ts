// Prints the GraphQL schemas, sorted, to schema.graphql (account listener) and schema.public.graphql
// (public listener), and each check's operation document to operations/documents/: committed, so a
// changed schema shows in review.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { declaredSchema, publicSchema, schema } from '../schema/index.js';
import { checkDeclarations } from '../schema/check-declarations.js';
import { checkDocument } from '../schema/check-document.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema(schema) + '\n');
writeFileSync(new URL('../schema.public.graphql', import.meta.url), printSchema(publicSchema) + '\n');
for (const declaration of checkDeclarations) {
  writeFileSync(new URL(`../operations/documents/${declaration.name}.graphql`, import.meta.url), checkDocument(declaredSchema, declaration));
}
