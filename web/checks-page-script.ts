import { readFileSync } from 'node:fs';
import { checkDeclarations } from '../schema/check-declarations.js';
import { checkSelection, wireNames } from '../schema/check-document.js';
import { declaredSchema } from '../schema/index.js';

/**
 * The checks page's browser script, inlined into the one HTML document (web/checks-page.ts). Its
 * source is a typed module, web/checks-page-client/checks-page.ts, compiled for browsers with the
 * portal (scripts/build-portal.ts, run by `npm install`, `npm start` and the test setup); here the
 * build is read once and its two placeholders are filled in from the schema.
 */
const BUILT = new URL('./checks-page-client/dist/checks-page.js', import.meta.url);

function readBuild(): string {
  try {
    return readFileSync(BUILT, 'utf8');
  } catch (error) {
    throw new Error(`The checks page's script is not built (${BUILT.pathname}): run \`npm run portal:build\`.`, { cause: error });
  }
}

/** The script with the check selections filled in from the schema (no aliases: a query holds at most 40). */
export const CHECKS_PAGE_SCRIPT = readBuild()
  .replace('__SELECTIONS__', JSON.stringify(Object.fromEntries(checkDeclarations.map((d) => [d.field, checkSelection(declaredSchema, d)]))))
  .replace('__WIRE_NAMES__', JSON.stringify(wireNames(declaredSchema)));
