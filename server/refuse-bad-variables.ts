import {
  coerceInputValue,
  getNamedType,
  getNullableType,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isRefusal, type Refusal } from '../operations/refusal-answer.js';
import {
  camelToSnake,
  describeExpectedType,
  invalidFieldError,
  missingFieldError,
  unknownFieldError,
  type Door,
  type Listener,
} from '../operations/describe-input-error.js';
import { apiErrorToGraphQLError } from './mask-error.js';

/**
 * What is wrong with an operation's variables, read from their structure (which variable, the path
 * inside it, the GraphQL input type there), never from graphql-js's message text: that text holds
 * the refused value (twice), so reading it with a regex costs time in proportion to what a caller
 * sends, and echoing it would send the value (a secret, or a megabyte) back.
 */
export type VariableProblem =
  | { readonly kind: 'unknown'; readonly field: string; readonly place: string | null }
  | { readonly kind: 'missing'; readonly field: string }
  | { readonly kind: 'invalid'; readonly field: string; readonly expectedType: string | null }
  | { readonly kind: 'refused'; readonly error: Refusal };

/** The longest name of an unknown field a refusal repeats: a caller may send a key of any length. */
const NAME_SHOWN = 60;

/**
 * The first problem with the variables of the operation (graphql-js's order: variables in the
 * order declared, inside each the order coerceInputValue reports), or null when they coerce. The
 * same acceptance as graphql-js: its coerceInputValue runs; only the first refusal is described.
 */
export function firstVariableProblem(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): VariableProblem | null {
  const operation = operationOf(document, operationName);
  if (!operation) return null;
  const inputs = variables ?? {};
  for (const definition of operation.variableDefinitions ?? []) {
    const problem = variableProblem(schema, definition, inputs);
    if (problem) return problem;
  }
  return null;
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (operationName) return operations.find((o) => o.name?.value === operationName);
  return operations.length === 1 ? operations[0] : undefined;
}

function variableProblem(schema: GraphQLSchema, definition: VariableDefinitionNode, inputs: Readonly<Record<string, unknown>>): VariableProblem | null {
  const name = definition.variable.name.value;
  const type = typeFromAST(schema, definition.type);
  // Not an input type: validation (VariablesAreInputTypesRule) has refused the document already.
  if (!type || !isInputType(type)) return null;
  if (!Object.hasOwn(inputs, name)) {
    return !definition.defaultValue && isNonNullType(type) ? { kind: 'missing', field: name } : null;
  }
  const value = inputs[name];
  if (value === null && isNonNullType(type)) return { kind: 'invalid', field: name, expectedType: null };
  let first: VariableProblem | null = null;
  coerceInputValue(
    value,
    type,
    (path, invalidValue, error) => {
      first ??= describe(name, type, path, invalidValue, error);
    },
    true,
  );
  return first;
}

/** One refusal of coerceInputValue, told by where it is and what the schema wants there. */
function describe(
  name: string,
  variableType: GraphQLInputType,
  path: readonly (string | number)[],
  invalidValue: unknown,
  error: GraphQLError,
): VariableProblem {
  // A scalar's own refusal in our words (a DomainError thrown by its parseValue) is the answer as it is.
  if (isRefusal(error.originalError)) return { kind: 'refused', error: error.originalError };
  const type = typeAt(variableType, path);
  const place = path.length > 0 ? placeOf(name, path) : null;
  const field = place ?? 'a field';
  if (invalidValue === null || invalidValue === undefined) return { kind: 'invalid', field, expectedType: null };
  const named = getNamedType(type);
  if (isInputObjectType(named)) {
    if (typeof invalidValue !== 'object' || Array.isArray(invalidValue)) return { kind: 'invalid', field, expectedType: named.name };
    const object: object = invalidValue;
    // coerceInputValue reports an object's own refusals in this order: a missing required field
    // (fields in their order), then a field the type does not define (keys in their order).
    const fields = named.getFields();
    for (const f of Object.values(fields)) {
      if (Reflect.get(object, f.name) === undefined && f.defaultValue === undefined && isNonNullType(f.type)) return { kind: 'missing', field: f.name };
    }
    const unknown = Object.keys(object).find((k) => !Object.hasOwn(fields, k));
    if (unknown !== undefined) {
      const shown = unknown.length > NAME_SHOWN ? `${unknown.slice(0, NAME_SHOWN)}…` : unknown;
      return { kind: 'unknown', field: shown, place };
    }
    // A oneOf input with no or several fields set.
    return { kind: 'invalid', field, expectedType: null };
  }
  // A leaf: a scalar names itself (String is "text", DateTime "one of the documented values"); an
  // enum's values are documented.
  return { kind: 'invalid', field, expectedType: isEnumType(named) ? null : named.name };
}

/**
 * The input type at a path inside a variable of the given type. A list takes a lone value as a list
 * of one, so a path may skip a list's index.
 */
function typeAt(type: GraphQLInputType, path: readonly (string | number)[]): GraphQLInputType {
  let current: GraphQLInputType = type;
  for (const key of path) {
    let nullable = getNullableType(current);
    while (isListType(nullable) && typeof key === 'string') nullable = getNullableType(nullable.ofType);
    if (isListType(nullable)) current = nullable.ofType;
    else if (isInputObjectType(nullable)) {
      const field = nullable.getFields()[String(key)];
      if (!field) return current;
      current = field.type;
    } else return current;
  }
  return current;
}

/**
 * Where in the variable, as a caller names it: the path after the variable's own name, in
 * snake_case, list positions in brackets ("domains[0].mailboxes[0]"); "the body" for the variable itself.
 */
function placeOf(name: string, path: readonly (string | number)[]): string {
  const printed = name + path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');
  return printed.split('.').slice(1).map(camelToSnake).join('.') || 'the body';
}

/** A problem as the refusal a caller of this door, on this listener, reads (operations/describe-input-error.ts; a scalar's DomainError is worded by the door). */
export function variableProblemToApiError(problem: VariableProblem, door: Door, listener: Listener): Refusal {
  switch (problem.kind) {
    case 'refused':
      return problem.error;
    case 'unknown':
      return unknownFieldError(problem.field, problem.place, door, listener);
    case 'missing':
      return missingFieldError(problem.field, door, listener);
    case 'invalid':
      // Never the internal type's name ("orderdomaininput expected"): what the caller should send instead.
      return invalidFieldError(problem.field, problem.expectedType ? describeExpectedType(problem.expectedType) : null, door, listener);
  }
}

/**
 * /graphql's variables checked before anything runs, answered as REST and MCP answer theirs (the
 * listener's status, a sentence naming the argument, no echo of what was sent). REST and MCP check
 * theirs in server/run-operation.ts first, worded for their door; they reach this with variables
 * that coerce.
 */
export function refuseBadVariables(listener: Listener): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const problem = firstVariableProblem(args.schema, args.document, args.operationName, args.variableValues);
      if (!problem) return;
      const operation = operationOf(args.document, args.operationName);
      const located = operation?.variableDefinitions?.length ? new GraphQLError('', { nodes: operation.variableDefinitions[0] }) : undefined;
      setResultAndStopExecution({ errors: [apiErrorToGraphQLError(variableProblemToApiError(problem, 'graphql', listener), located)] });
    },
  };
}
