import type { GraphQLError } from 'graphql';
import { ApiError } from '../resolvers/api-error.js';

/** Fields that name a price. The body says what to build, never what to charge (SPEC 2.2). */
const PRICE_LIKE = ['price', 'price_id', 'priceId', 'amount', 'unit_amount', 'unitAmount', 'total'];

const camelToSnake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Turns GraphQL's own refusals (variable coercion, validation: errors no resolver threw, so they carry
 * no ApiError) into the ApiError a REST or MCP caller sees, worded for those callers: an unknown field
 * (a price above all) is a 400, a field of the wrong shape a 422. graphql-js states which field and
 * which type only in its message, so this reads the message; resolver refusals never come here
 * (server/run-operation.ts hands them on as thrown).
 */
export function graphqlErrorToApiError(errors: readonly GraphQLError[]): ApiError {
  const first = errors[0];
  if (!first) return new ApiError(500, 'internal_error', 'The operation returned no data and no error.');
  const message = first.message;
  const unknownField = /Field "([^"]+)" is not defined by type/.exec(message);
  if (unknownField) {
    const field = camelToSnake(unknownField[1] ?? '');
    const where = /at "([^"]+)"/.exec(message)?.[1];
    const place = where ? ` (in ${where.split('.').slice(1).map(camelToSnake).join('.') || 'the body'})` : '';
    if (PRICE_LIKE.includes(unknownField[1] ?? '')) {
      return new ApiError(400, 'price_in_body', `Remove "${field}"${place}: the body names what to build, never what to charge; the service computes the price from your plan.`);
    }
    return new ApiError(400, 'unknown_field', `Remove "${field}"${place}: it is not a field of this request.`);
  }
  if (/got invalid value|Expected type|cannot represent|of required type/.test(message)) {
    const missing = /Field "([^"]+)" of required type "[^"]+" was not provided/.exec(message);
    if (missing) return new ApiError(422, 'missing_field', `Send the field "${camelToSnake(missing[1] ?? '')}": it is required.`);
    const where = /at "([^"]+)"/.exec(message)?.[1];
    const field = where ? where.split('.').slice(1).map(camelToSnake).join('.') : 'a field';
    const expected = /Expected type "([^"]+)"|cannot represent[^:]*: (.*)/.exec(message);
    return new ApiError(422, 'invalid_field', `The field "${field}" is not in the expected shape${expected ? ` (${(expected[1] ?? expected[2] ?? '').replace(/[!"]/g, '').toLowerCase()} expected)` : ''}; send it with the documented type.`);
  }
  if (/limit|exceeded|Max|depth|cost|Token/i.test(message)) {
    return new ApiError(400, 'query_too_complex', `${message.replace(/^Syntax Error: /, '')} Simplify the query.`);
  }
  return new ApiError(400, 'invalid_request', message);
}
