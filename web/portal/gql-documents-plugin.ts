import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = '\0portal-gql-document:';

/**
 * Replaces each page's `graphql(`query Name …`)` call with the one document it names, each document
 * a module of its own (what the codegen client preset's Babel plugin does; plugin-react no longer
 * runs Babel). Without it, `graphql()` looks the text up in src/gql/gql.ts's map of every document
 * in the portal, and even importing the documents by name from src/gql/graphql.ts would keep them in
 * one module, so in one chunk: every page's queries landed in the first load (about 150 KB of the
 * 474 KB entry). With it, each document sits in the chunk of the page that asks it.
 * Type checking is untouched: tsc still reads the pages' graphql() calls and src/gql's types.
 */
export function gqlDocumentsPlugin(srcDir: string): Plugin {
  const gqlDir = join(srcDir, 'gql');
  const generated = join(gqlDir, 'graphql.ts');
  const call = /\bgraphql\(\s*`([^`]*)`\s*\)/g;

  /** The AST literal codegen wrote for `name` (one line: `export const XDocument = {…} as unknown as DocumentNode<…>;`). */
  function documentLiteral(name: string): string | null {
    const line = readFileSync(generated, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`export const ${name} = {`));
    const literal = line?.slice(`export const ${name} = `.length).replace(/ as unknown as DocumentNode<.*>;$/, '');
    return literal?.startsWith('{') && literal.endsWith('}') ? literal : null;
  }

  return {
    name: 'portal-gql-documents',
    enforce: 'pre',
    resolveId(id) {
      return id.startsWith(PREFIX) ? id : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const name = id.slice(PREFIX.length);
      const literal = documentLiteral(name);
      if (!literal) throw new Error(`src/gql/graphql.ts has no ${name}; run the codegen (npx tsx scripts/build-portal.ts)`);
      return `export default ${literal};\n`;
    },
    transform(code, id) {
      if (!id.startsWith(srcDir) || id.startsWith(gqlDir) || !/\.tsx?$/.test(id) || !code.includes('graphql(`')) return null;
      const names = new Set<string>();
      const replaced = code.replace(call, (_whole, text: string) => {
        const definition = /^\s*(query|mutation|subscription|fragment)\s+(\w+)/.exec(text);
        if (!definition) throw new Error(`${id}: a graphql() document without a named operation; name it so the build can import it alone`);
        const name = definition[1] === 'fragment' ? `${definition[2]}FragmentDoc` : `${definition[2]}Document`;
        names.add(name);
        return `gql$${name}`; // an alias: pages name their own const after the document too
      });
      const imports = [...names].map((name) => `import gql$${name} from ${JSON.stringify(PREFIX + name)};\n`).join('');
      return { code: imports + replaced, map: null }; // the unused graphql import is tree-shaken, with gql.ts's map
    },
  };
}
