import type { GraphQLError } from 'graphql';
import { ApiError } from '../resolvers/api-error.js';
import {
  camelToSnake,
  describeExpectedType,
  invalidFieldError,
  missingFieldError,
  unknownFieldError,
  type Door,
  type Listener,
} from '../operations/describe-input-error.js';

/**
 * Turns GraphQL's own refusals (variable coercion, validation: errors no resolver threw, so they carry
 * no ApiError) into the ApiError a REST or MCP caller sees, worded by operations/describe-input-error.ts: an
 * unknown, missing or wrong-shaped field is one class (422 on the account API), a price-like field the
 * 400 SPEC 7 names. graphql-js states which field and which type only in its message, so this reads
 * the message; resolver refusals never come here (server/run-operation.ts hands them on as thrown).
 * Worded for the door the call came through, with the status of the listener it reached.
 */
export function graphqlErrorToApiError(errors: readonly GraphQLError[], door: Door, listener: Listener): ApiError {
  const first = errors[0];
  if (!first) return new ApiError(500, 'internal_error', 'The operation returned no data and no error.');
  const message = first.message;
  const unknownField = /Field "([^"]+)" is not defined by type/.exec(message);
  if (unknownField) {
    // The wording and the status (one class with a field of the wrong shape) live in operations/describe-input-error.ts.
    const where = /at "([^"]+)"/.exec(message)?.[1];
    return unknownFieldError(unknownField[1] ?? '', where ? where.split('.').slice(1).map(camelToSnake).join('.') || 'the body' : null, door, listener);
  }
  if (/got invalid value|Expected type|cannot represent|of required type/.test(message)) {
    const missing = /Field "([^"]+)" of required type "[^"]+" was not provided/.exec(message);
    if (missing) return missingFieldError(missing[1] ?? '', door, listener);
    const where = /at "([^"]+)"/.exec(message)?.[1];
    const field = where ? where.split('.').slice(1).map(camelToSnake).join('.') || 'the body' : 'a field';
    // Never the internal type's name ("orderdomaininput expected"): what the caller should send instead.
    const expectedType = /Expected type "([^"]+)"/.exec(message)?.[1] ?? /(\w+) cannot represent/.exec(message)?.[1] ?? /of type "([^"]+)"/.exec(message)?.[1];
    return invalidFieldError(field, expectedType ? describeExpectedType(expectedType) : null, door, listener);
  }
  if (/limit|exceeded|Max|depth|cost|Token/i.test(message)) {
    return new ApiError(400, 'query_too_complex', `${message.replace(/^Syntax Error: /, '')} Simplify the query.`);
  }
  return new ApiError(400, 'invalid_request', message);
}
