// Project lint: rules tsc does not check. Exits 1 with one line per problem.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['schema', 'resolvers', 'rest', 'mcp', 'db', 'server', 'admin', 'test', 'bench', 'web'];
const problems = [];

function walk(dir) {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|mjs)$/.test(name)) check(path, readFileSync(path, 'utf8'));
  }
}

function check(path, text) {
  const isTest = path.startsWith('test/');
  const isScript = path.startsWith('bench/') || path.startsWith('admin/') || path.startsWith('test/');
  text.split('\n').forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    if (isTest && /\b(it|describe|test)\.only\(/.test(line)) problems.push(`${at}: .only() leaves the rest of the suite unrun`);
    if (isTest && /\b(it|describe|test)\.(skip|todo)\(/.test(line) && !/because|reason|skipIf|runIf/.test(line)) problems.push(`${at}: a skipped test must say why`);
    if (!isScript && /\bconsole\.(log|debug)\(/.test(line)) problems.push(`${at}: use server/log.ts, not console`);
    if (/\bdebugger\b/.test(line)) problems.push(`${at}: debugger statement`);
    if (!isTest && !path.startsWith('bench/') && /from ['"](vitest|\.\.\/test|\.\.\/\.\.\/test)/.test(line)) problems.push(`${at}: source must not import test code`);
  });
  if (path.startsWith('resolvers/') && /from ['"](graphql|graphql-yoga|node:http)['"]/.test(text)) {
    problems.push(`${path}: resolvers are plain functions; they must not import GraphQL or HTTP server code`);
  }
}

roots.forEach(walk);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('lint: no problems');
