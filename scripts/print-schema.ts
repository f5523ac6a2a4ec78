// Prints the GraphQL schemas, sorted, to schema.graphql (account listener) and schema.public.graphql
// (public listener), and every row's operation document to operations/documents/ (printed from the
// operation table and the schema: operations/print-operation-document.ts): committed, so a changed
// schema shows in review. test/operations/printed-documents.test.ts fails when one is out of date.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { declaredSchema, publicSchema, schema } from '../schema/index.js';
import { operationTable } from '../operations/operation-table.js';
import { printOperationDocument } from '../operations/print-operation-document.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema(schema) + '\n');
writeFileSync(new URL('../schema.public.graphql', import.meta.url), printSchema(publicSchema) + '\n');
const documents = new URL('../operations/documents/', import.meta.url);
const printed = new Set(operationTable.map((row) => `${row.document}.graphql`));
// A document whose row is gone goes with it.
for (const file of readdirSync(documents)) if (file.endsWith('.graphql') && !printed.has(file)) rmSync(new URL(file, documents));
for (const row of operationTable) writeFileSync(new URL(`${row.document}.graphql`, documents), printOperationDocument(declaredSchema, row));
