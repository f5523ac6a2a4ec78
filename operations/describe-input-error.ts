import { ApiError } from './api-error.js';

/**
 * The one error model for input a caller sent in the wrong shape, worded for the door it came
 * through. Used by the REST and MCP doors and by the refusal of GraphQL variables in the wrong
 * shape (server/refuse-bad-variables.ts, from their structure), so each says the same thing the same way.
 *
 * The class, decided once from SPEC 7: on the account API "a field is not in the expected shape" is
 * a 422, and an unknown field, a missing one, a field of the wrong type and a malformed
 * Idempotency-Key are all that one class. The public checks API answers "a missing or malformed
 * required parameter" with 400, so there the same class is a 400. A price-like field stays the 400
 * SPEC 7 names for it, on any door.
 */
export type Door = 'rest' | 'mcp' | 'graphql';
export type Listener = 'api' | 'public';

export function inputShapeStatus(listener: Listener): 400 | 422 {
  return listener === 'public' ? 400 : 422;
}

/** What one input is called on a door: a REST body field or parameter, an MCP argument, a GraphQL argument. */
export function inputNoun(door: Door, where: 'body' | 'query' | 'path' = 'body'): string {
  if (door === 'mcp') return 'argument';
  if (door === 'graphql') return 'argument';
  return where === 'query' ? 'query parameter' : where === 'path' ? 'path parameter' : 'field';
}

/** Fields that name a price. The body says what to build, never what to charge (SPEC 2.2). */
export const PRICE_LIKE: readonly string[] = ['price', 'price_id', 'priceId', 'amount', 'unit_amount', 'unitAmount', 'total'];

const SCALAR_WORDS: Readonly<Record<string, string>> = {
  String: 'text',
  ID: 'text',
  Int: 'a whole number',
  Float: 'a number',
  Boolean: 'true or false',
};

/**
 * A GraphQL type as a caller reads it, never its internal name: "[OrderDomainInput!]!" is "a list of
 * objects", "Int" "a whole number". An enum or a custom scalar is "one of the documented values".
 */
export function describeExpectedType(graphqlType: string): string {
  const bare = graphqlType.replace(/[!"]/g, '').trim();
  const list = /^\[(.*)\]$/.exec(bare);
  if (list) return `a list whose items are each ${describeExpectedType(list[1] ?? '')}`;
  const scalar = SCALAR_WORDS[bare];
  if (scalar) return scalar;
  if (bare.endsWith('Input')) return 'an object with the documented fields';
  return 'one of the documented values';
}

export const camelToSnake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function unknownFieldError(field: string, place: string | null, door: Door, listener: Listener): ApiError {
  const where = place ? ` (in ${place})` : '';
  if (PRICE_LIKE.includes(field)) {
    return new ApiError(
      400,
      'price_in_body',
      `Remove "${camelToSnake(field)}"${where}: an order names what to build, never what to charge; the service computes the price from your plan.`,
    );
  }
  return new ApiError(
    inputShapeStatus(listener),
    'unknown_field',
    `Remove "${camelToSnake(field)}"${where}: it is not ${door === 'rest' ? 'a field of this request' : 'an argument of this call'}.`,
  );
}

export function unknownInputsError(
  names: readonly string[],
  known: readonly string[],
  door: Door,
  listener: Listener,
  where: 'body' | 'query' = 'body',
): ApiError {
  const noun = inputNoun(door, where);
  const list = names
    .slice(0, 5)
    .map((k) => `"${k.slice(0, 40)}"`)
    .join(', ');
  const takes = known.length ? `it takes ${known.map((k) => `"${k}"`).join(', ')}` : `it takes no ${noun}s`;
  return new ApiError(
    inputShapeStatus(listener),
    'unknown_field',
    `Remove ${list}: ${names.length > 1 ? `they are not ${noun}s` : `it is not ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`} of this call; ${takes}.`,
  );
}

export function missingFieldError(field: string, door: Door, listener: Listener, why = 'it is required', where: 'body' | 'query' | 'path' = 'body'): ApiError {
  return new ApiError(
    inputShapeStatus(listener),
    listener === 'public' ? 'missing_parameter' : 'missing_field',
    `Send the ${inputNoun(door, where)} "${camelToSnake(field)}": ${why}.`,
  );
}

export function invalidFieldError(field: string, expected: string | null, door: Door, listener: Listener, where: 'body' | 'query' | 'path' = 'body'): ApiError {
  return new ApiError(
    inputShapeStatus(listener),
    listener === 'public' ? 'invalid_parameter' : 'invalid_field',
    `The ${inputNoun(door, where)} "${field}" is not in the expected shape${expected ? `: send ${expected}` : '; send it as documented'}.`,
  );
}
