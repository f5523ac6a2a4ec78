// Errors by structure (issue 33, item 4): a rule of the business refuses with a DomainError (a code,
// a sentence, fields) and each door decides the status and the words. So in resolvers/:
//   - no `ctx.door` (a sentence that names an input the doors spell apart uses input(...); the two
//     audit records below keep which door showed passwords, a fact, not wording);
//   - no HTTP answer made there: no `new ApiError(`, `extends ApiError` or `badRequest(`, and no
//     `status: <number>` in a DomainError's fields;
//   - no REST path ('/v1/') in a DomainError's sentence (operation('row_name') names another call).
// A sentence is the text between `new DomainError(` (or `super(` in a class extending DomainError)
// and its closing parenthesis; comments are not read. Run with a folder to lint another tree.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** `ctx.door` lines allowed, with why: the event records which door revealed mailbox passwords. */
const DOOR_ALLOWED: readonly { readonly file: string; readonly line: string }[] = [
  { file: 'resolvers/mailboxes/domain-mailboxes.ts', line: 'door: ctx.door,' },
  { file: 'resolvers/mailboxes/export-mailboxes.ts', line: 'door: ctx.door,' },
];

/** Problems in one resolver file's text, as "line: what" (exported for test/errors/domain-errors.test.ts). */
export function domainErrorProblems(file: string, text: string): string[] {
  const code = withoutComments(text);
  const problems: string[] = [];
  const lineOf = (at: number) => code.slice(0, at).split('\n').length;
  code.split('\n').forEach((line, i) => {
    if (/\bctx\??\.door\b/.test(line) && !DOOR_ALLOWED.some((a) => file.endsWith(a.file) && line.trim() === a.line)) {
      problems.push(`${i + 1}: ctx.door in resolvers/: name the input with input(...) from resolvers/domain-error.ts and let each door spell it`);
    }
  });
  for (const match of code.matchAll(/new ApiError\(|extends ApiError\b|\bbadRequest\(/g)) {
    problems.push(
      `${lineOf(match.index)}: ${match[0]} in resolvers/: throw a DomainError (a code and a sentence); the doors give the status (operations/error-statuses.ts)`,
    );
  }
  const starts = [...code.matchAll(/new DomainError\(/g)].map((m) => m.index + m[0].length);
  if (/extends DomainError\b/.test(code)) starts.push(...[...code.matchAll(/\bsuper\(/g)].map((m) => m.index + m[0].length));
  for (const start of starts) {
    const args = code.slice(start, closingParen(code, start));
    if (args.includes('/v1/')) {
      problems.push(`${lineOf(start)}: a REST path in a DomainError's sentence: name the call with operation('<row name>') so each door words it`);
    }
    if (/\bstatus:\s*\d{3}\b/.test(args))
      problems.push(`${lineOf(start)}: an HTTP status in a DomainError's fields: the doors give the status (operations/error-statuses.ts)`);
  }
  return problems;
}

/** The text with comments blanked (strings and templates kept, line breaks kept so line numbers hold). */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    if (two === '//' || two === '/*') {
      const end = two === '//' ? text.indexOf('\n', i) : text.indexOf('*/', i) + 2;
      const stop = end <= 1 || end === -1 ? text.length : end;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    const quote = text[i];
    if (quote === "'" || quote === '"' || quote === '`') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    out += text[i];
    i += 1;
  }
  return out;
}

/** Where the string or template starting at `at` ends (past its closing quote); templates' ${...} are skipped whole. */
function stringEnd(text: string, at: number): number {
  const quote = text[at];
  let i = at + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] === '\\') i += 2;
    else if (quote === '`' && text.startsWith('${', i)) i = closingBrace(text, i + 2) + 1;
    else i += 1;
  }
  return i + 1;
}

function closingBrace(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{') depth += 1;
    if (c === '}' && --depth === 0) return i;
    i += 1;
  }
  return text.length;
}

/** The index of the parenthesis closing the call whose arguments start at `from`. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '(') depth += 1;
    if (c === ')' && --depth === 0) return i;
    i += 1;
  }
  return text.length;
}

function walk(dir: string, found: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, found);
    else if (entry.name.endsWith('.ts')) found.push(path);
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? '.';
  // clients/ too: its payment refusals (clients/payments/payment-errors.ts) came from resolvers/ and are DomainErrors.
  const problems = ['resolvers', 'clients']
    .flatMap((folder) => walk(join(root, folder), []))
    .flatMap((path) => {
      const file = relative(root, path);
      return domainErrorProblems(file, readFileSync(path, 'utf8')).map((problem) => `${file}:${problem}`);
    });
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exit(1);
  }
}
