import type { DomainCode } from './domain-codes.js';

/**
 * The one error a rule of the business throws when it refuses a request: a stable `code` and a
 * sentence that tells the caller what to change, plus optional structured `fields` every door adds
 * to its answer (`problems` grouped by domain, `retry_after`, `allowed`, ...).
 *
 * It names no HTTP status, no REST path and no door: each door maps the code to its own status and
 * spells the sentence's terms its own way (operations/error-statuses.ts, and the words of
 * rest/rest-error-words.ts, mcp/mcp-error-words.ts, server/graphql-error-words.ts). A sentence that
 * names one of the caller's inputs or another call to make says so with a term
 * (`input('page_limit')`, `operation('list_webhooks')`) rather than spelling it, so /graphql can say
 * "first" where REST says "limit" (scripts/lint-domain-errors.ts keeps resolvers to this).
 */
export class DomainError extends Error {
  readonly words: Sentence;

  constructor(
    readonly code: DomainCode,
    words: string | Sentence,
    readonly fields: Readonly<Record<string, unknown>> = {},
  ) {
    const said = typeof words === 'string' ? new Sentence([words]) : words;
    super(spell(said, PLAIN));
    this.words = said;
    this.name = 'DomainError';
  }

  /** The sentence with its terms spelled by their own names: for logs, and for the checks that quote a term-free refusal in their answer. */
  get detail(): string {
    return this.message;
  }
}

/** An input of the request, named as the caller's door names it (a header, an argument, a query parameter). */
export type InputTerm = { readonly kind: 'input'; readonly name: InputName; readonly capitalised?: boolean };
/** Another call the caller can make, named as the caller's door names it; `params` fill its placeholders, the others stay as `{name}`. */
export type OperationTerm = { readonly kind: 'operation'; readonly name: string; readonly params?: Readonly<Record<string, string | number>> };
export type Term = InputTerm | OperationTerm;

/** The inputs a refusal names whose spelling differs between the doors. */
export type InputName = 'idempotency_key' | 'page_limit' | 'page_cursor';

/** A sentence as text and terms, in order (made by the `sentence` template tag). */
export class Sentence {
  constructor(readonly parts: readonly (string | Term)[]) {}
}

/** A term for the caller's input `name`; `capitalised` when it starts the sentence. */
export function input(name: InputName, capitalised = false): InputTerm {
  return capitalised ? { kind: 'input', name, capitalised } : { kind: 'input', name };
}

/** A term for the operation-table row `name` (its operationId), with the values of its path placeholders the sentence knows. */
export function operation(name: string, params?: Readonly<Record<string, string | number>>): OperationTerm {
  return params ? { kind: 'operation', name, params } : { kind: 'operation', name };
}

/** A sentence from a template: text as written, terms (and the parts of a sentence inside it) kept as they are, any other value as its text. */
export function sentence(text: TemplateStringsArray, ...values: readonly unknown[]): Sentence {
  const parts: (string | Term)[] = [];
  const push = (part: string | Term) => {
    const last = parts.at(-1);
    if (typeof part === 'string' && typeof last === 'string') parts[parts.length - 1] = last + part;
    else if (part !== '') parts.push(part);
  };
  text.forEach((literal, i) => {
    push(literal);
    if (i >= values.length) return;
    const value = values[i];
    if (value instanceof Sentence) for (const part of value.parts) push(part);
    else if (isTerm(value)) push(value);
    else push(String(value));
  });
  return new Sentence(parts);
}

function isTerm(value: unknown): value is Term {
  return typeof value === 'object' && value !== null && 'kind' in value && (value.kind === 'input' || value.kind === 'operation');
}

/** How a door spells the terms of a sentence. */
export interface TermSpelling {
  input(name: InputName): string;
  operation(term: OperationTerm): string;
}

/** The sentence in one door's words. */
export function spell(words: Sentence, spelling: TermSpelling): string {
  return words.parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (part.kind === 'operation') return spelling.operation(part);
      const name = spelling.input(part.name);
      return part.capitalised ? `${name.charAt(0).toUpperCase()}${name.slice(1)}` : name;
    })
    .join('');
}

const PLAIN: TermSpelling = { input: (name) => name, operation: (term) => term.name };
