import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationTable } from '../../operations/operation-table.js';
import { HTTP_STATUS_BY_CODE } from '../../operations/error-statuses.js';
import { domainErrorAnswer } from '../../operations/refusal-answer.js';
import { DomainError, input, operation, sentence } from '../../resolvers/domain-error.js';
import { checkIdempotencyKey } from '../../resolvers/orders/idempotency-records.js';
import { invalidCursor, readPageArgs } from '../../resolvers/pagination.js';
import { NoPaymentMethodError } from '../../clients/payments/payment-errors.js';
import { REST_WORDS } from '../../rest/rest-error-words.js';
import { MCP_WORDS } from '../../mcp/mcp-error-words.js';
import { GRAPHQL_WORDS } from '../../server/graphql-error-words.js';
import { domainErrorProblems } from '../../scripts/lint-domain-errors.js';
import { repoRoot } from '../support/spawn-server.js';

const thrown = (run: () => unknown): DomainError => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
};

/** The sentence as each door words it, in the order REST, MCP, /graphql. */
const wordedByDoors = (error: DomainError) => [REST_WORDS, MCP_WORDS, GRAPHQL_WORDS].map((words) => domainErrorAnswer(error, words).detail);

describe('a rule refuses with a code and a sentence; each door words it', () => {
  // The words each door said when resolvers branched on ctx.door (before issue 33 item 4), byte for byte.
  it('the idempotency key is named as each door takes it: a REST header, an MCP argument, a GraphQL argument', () => {
    expect(wordedByDoors(thrown(() => checkIdempotencyKey(null)))).toEqual(
      ['the Idempotency-Key header', 'the argument "idempotency_key"', 'the argument "idempotencyKey"'].map(
        (name) =>
          `Send ${name}: 8 to 64 letters, digits, ".", "-", ":" or "_", new for each new order (a UUID works). A retry with the same key never places a second order.`,
      ),
    );
    expect(wordedByDoors(thrown(() => checkIdempotencyKey('no')))).toEqual(
      ['The Idempotency-Key header', 'The argument "idempotency_key"', 'The argument "idempotencyKey"'].map(
        (name) => `${name} must be 8 to 64 characters, each a letter, digit, ".", "-", ":" or "_"; "no" is not. A UUID works.`,
      ),
    );
  });

  it('the page inputs are named as each door spells them: limit and starting_after, or first and after on /graphql', () => {
    expect(wordedByDoors(thrown(() => readPageArgs({ first: 0 })))).toEqual([
      '"limit" is a whole number from 1 to 100, not 0.',
      '"limit" is a whole number from 1 to 100, not 0.',
      '"first" is a whole number from 1 to 100, not 0.',
    ]);
    const cursor = (name: string) =>
      `"${name}" must be an event id (evt_...) from a previous page of this list; "x" is not one of yours. Leave it out for the first page.`;
    expect(wordedByDoors(invalidCursor('an event id (evt_...)', 'x'))).toEqual([cursor('starting_after'), cursor('starting_after'), cursor('after')]);
  });

  it('another call is named by its row: method and path from the operation table, the known placeholders filled', () => {
    const error = new DomainError(
      'delivery_not_found',
      sentence`Endpoint 7 has no delivery 9; ${operation('list_webhook_deliveries', { webhook_id: 7 })} lists them, ${operation('list_domain_mailboxes')} too.`,
    );
    expect(new Set(wordedByDoors(error))).toEqual(
      new Set(['Endpoint 7 has no delivery 9; GET /v1/webhooks/7/deliveries lists them, GET /v1/portal/domains/{domain}/mailboxes too.']),
    );
    expect(wordedByDoors(new NoPaymentMethodError())[0]).toBe(
      'No card is on file, so nothing was charged. Open the link from POST /v1/payment-method/setup-link in a browser to save a card, then place the order again.',
    );
  });

  it('the status and wire code come from the door, never from the rule', () => {
    const answer = domainErrorAnswer(new DomainError('invalid_return_url', 'x', { field: 'return_url' }), REST_WORDS);
    expect(answer).toMatchObject({ status: 422, code: 'invalid_url', detail: 'x', extras: { field: 'return_url' } });
    expect(domainErrorAnswer(new DomainError('invalid_url', 'x'), REST_WORDS)).toMatchObject({ status: 400, code: 'invalid_url' });
    expect(HTTP_STATUS_BY_CODE.rate_limited).toBe(429);
    expect(sentence`a ${input('page_limit', true)} b`.parts).toEqual(['a ', { kind: 'input', name: 'page_limit', capitalised: true }, ' b']);
  });

  it('every operation a refusal names is a row of the operation table', () => {
    const names = new Set(operationTable.map((row) => row.name));
    const named = resolverFiles().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\boperation\('([a-z_]+)'/g)].map((m) => m[1]));
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((name) => !names.has(name ?? ''))).toEqual([]);
  });
});

describe('scripts/lint-domain-errors.ts', () => {
  it('refuses ctx.door, an HTTP answer, a status in the fields and a REST path in a sentence; comments are not read', () => {
    const planted = [
      "import { DomainError } from '../domain-error.js';",
      '// GET /v1/events in a comment is fine, and so is ctx.door here',
      "export const a = (ctx: { door: string }) => (ctx.door === 'graphql' ? 'first' : 'limit');",
      "export const b = () => new ApiError(404, 'x_not_found', 'No x.');",
      "export const c = (id: number) => new DomainError('webhook_not_found', `No ${id}; GET /v1/webhooks/${id} (see ${id})`);",
      "export const d = () => new DomainError('conflict', 'Busy.', { status: 409 });",
      "export const e = () => new DomainError('conflict', `Busy (${'/'}).`, { retry_after: 5 });",
    ].join('\n');
    const problems = domainErrorProblems('resolvers/planted.ts', planted);
    expect(problems.map((p) => p.slice(0, p.indexOf(':')))).toEqual(['3', '4', '5', '6']);
    expect(problems.join('\n')).toMatch(/^3: ctx\.door in resolvers\/.*\n4: new ApiError\( in resolvers\/.*\n5: a REST path .*\n6: an HTTP status /);
    expect(domainErrorProblems('resolvers/mailboxes/export-mailboxes.ts', '    door: ctx.door,\n')).toEqual([]);
  });

  it("passes on this repository's resolvers", () => {
    const problems = resolverFiles().flatMap((file) => domainErrorProblems(file, readFileSync(file, 'utf8')).map((p) => `${file}:${p}`));
    expect(problems).toEqual([]);
  });
});

function resolverFiles(dir = join(repoRoot, 'resolvers')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return resolverFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
