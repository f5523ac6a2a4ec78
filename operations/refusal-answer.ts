import { ApiError } from './api-error.js';
import { DomainError, spell, type InputName, type OperationTerm, type TermSpelling } from '../resolvers/domain-error.js';
import { HTTP_STATUS_BY_CODE, WIRE_CODE } from './error-statuses.js';
import { operationTable, type OperationRow } from './operation-table.js';

/** One door's words for the terms of a refusal's sentence: how it names the caller's inputs and the calls a sentence points to. */
export interface DoorWords {
  readonly inputs: Readonly<Record<InputName, string>>;
  readonly operation: (term: OperationTerm) => string;
}

/**
 * The answer a door sends for a refusal: an ApiError made at a door passes as it is; a rule's
 * DomainError gets its status and wire code from operations/error-statuses.ts and its sentence in
 * the door's words. Anything else is not a refusal (null): the door lets it through to its 500.
 */
export function refusalAnswer(error: unknown, words: DoorWords): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return domainErrorAnswer(error, words);
  return null;
}

/** A rule's refusal as one door answers it: its status, its wire code, its sentence in the door's words, its fields. */
export function domainErrorAnswer(error: DomainError, words: DoorWords): ApiError {
  const spelling: TermSpelling = { input: (name) => words.inputs[name], operation: words.operation };
  return new ApiError(HTTP_STATUS_BY_CODE[error.code], WIRE_CODE[error.code] ?? error.code, spell(error.words, spelling), error.fields);
}

/** A refusal as its door answers it, or the DomainError still to be worded by the door that catches it. */
export type Refusal = ApiError | DomainError;

export function isRefusal(error: unknown): error is Refusal {
  return error instanceof ApiError || error instanceof DomainError;
}

let rowsByName: ReadonlyMap<string, OperationRow> | undefined;

/**
 * "GET /v1/webhooks/7/deliveries": an operation as REST calls it, from the operation table (so a
 * sentence follows a moved path), with the placeholders the sentence knows filled and the rest left
 * as `{name}`. Every door names the REST call in its sentences today.
 */
export function restCallOf(term: OperationTerm): string {
  rowsByName ??= new Map(operationTable.map((row) => [row.name, row]));
  const row = rowsByName.get(term.name);
  // A sentence naming a row that does not exist is a bug (test/errors/domain-errors.test.ts reads every one).
  if (!row) throw new Error(`A refusal names the operation "${term.name}", which the operation table does not hold.`);
  const params = term.params ?? {};
  const path = row.path.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  return `${row.method} ${path}`;
}
