import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, Kind, type DocumentNode } from 'graphql';

export interface LoadedDocument {
  readonly source: string;
  readonly operationName: string;
  /** Parsed once here for the doors' own readers (OpenAPI, body schemas); execution parses through the pipeline's cache. */
  readonly document: DocumentNode;
}

const documents = new Map<string, LoadedDocument>();

/** Reads operations/documents/<name>.graphql once and finds its operation's name. */
export function loadDocument(name: string): LoadedDocument {
  let doc = documents.get(name);
  if (!doc) {
    const source = readFileSync(fileURLToPath(new URL(`./documents/${name}.graphql`, import.meta.url)), 'utf8');
    const document = parse(source);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    if (!operation || operation.kind !== Kind.OPERATION_DEFINITION || !operation.name)
      throw new Error(`operations/documents/${name}.graphql must hold one named operation.`);
    doc = { source, operationName: operation.name.value, document };
    documents.set(name, doc);
  }
  return doc;
}
