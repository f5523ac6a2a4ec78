// Prints the GraphQL schema, sorted, to schema.graphql: committed, so a changed schema shows in review.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema(schema) + '\n');
