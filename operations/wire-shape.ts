import {
  Kind,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInputType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  typeFromAST,
  type DocumentNode,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { doorEnumOf, enumNameOf, hasWireSpellings, wireValueOf } from '../schema/door-enum-extension.js';
import { wireNameOf } from '../schema/wire-field-extension.js';
import { snakeToCamel } from './snake-to-camel.js';

/**
 * The one place an answer takes the shape REST and MCP document, and their input the shape GraphQL
 * takes. GraphQL answers in its own names (camelCase keys, enum names such as P7D); those doors in
 * snake_case keys and the documented enum spellings ("7d"). Both directions are read from the
 * schema: a field's key is its `wireName` or the snake_case of its name (schema/wire-field-extension.ts),
 * an enum value's spelling its `door.wireValues` entry or its name (schema/door-enum-extension.ts).
 * The operation documents select fields without aliases (operations/print-operation-document.ts).
 */

/** How to rename one selection set's answer: response key → its wire key, enum and sub-selection. */
interface ShapePlan {
  readonly keys: ReadonlyMap<string, KeyPlan>;
}

interface KeyPlan {
  readonly wire: string;
  /** Set when the value (or each item) is an enum whose spellings differ from its names. */
  readonly spelled?: GraphQLEnumType;
  readonly inner?: ShapePlan;
}

const plans = new WeakMap<DocumentNode, Map<string | undefined, ShapePlan>>();

function operationOf(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  if (!operation) throw new Error(`The document holds no operation ${operationName ?? ''}.`);
  return operation;
}

function planOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): ShapePlan {
  let byName = plans.get(document);
  if (!byName) {
    byName = new Map();
    plans.set(document, byName);
  }
  let plan = byName.get(operationName);
  if (!plan) {
    const operation = operationOf(document, operationName);
    const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
    if (!root) throw new Error(`The schema has no ${operation.operation} type.`);
    plan = selectionPlan(schema, document, root, operation.selectionSet, 0);
    byName.set(operationName, plan);
  }
  return plan;
}

/** The plan of a selection set on a type; on a union, every member's fragment adds its keys (a key means one thing on all). */
function selectionPlan(schema: GraphQLSchema, document: DocumentNode, type: GraphQLNamedType, set: SelectionSetNode, depth: number): ShapePlan {
  const keys = new Map<string, KeyPlan>();
  const collect = (on: GraphQLNamedType, selections: SelectionSetNode): void => {
    if (depth > 30) throw new Error('The operation document nests deeper than 30 selections.');
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!isObjectType(on) && !isInterfaceType(on)) continue;
        const field: GraphQLField<unknown, unknown> | undefined = on.getFields()[selection.name.value];
        if (!field) continue; // __typename: as GraphQL answers it
        const key = selection.alias?.value ?? selection.name.value;
        const named = getNamedType(field.type);
        const next: KeyPlan = {
          // An alias the caller chose is kept as written; a field's own name becomes its wire name.
          wire: selection.alias ? selection.alias.value : wireNameOf(field),
          ...(isEnumType(named) && hasWireSpellings(named) ? { spelled: named } : {}),
          ...(selection.selectionSet ? { inner: selectionPlan(schema, document, named, selection.selectionSet, depth + 1) } : {}),
        };
        const known = keys.get(key);
        if (known && (known.wire !== next.wire || known.spelled !== next.spelled))
          throw new Error(`"${key}" is ${known.wire} on one member of ${on.name}'s union and ${next.wire} on another.`);
        if (!known) keys.set(key, next);
      } else {
        const set = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragmentOf(document, selection.name.value);
        const condition = set.typeCondition ? schema.getType(set.typeCondition.name.value) : on;
        if (condition) collect(condition, set.selectionSet);
      }
    }
  };
  if (isUnionType(type)) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) continue; // __typename
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragmentOf(document, selection.name.value);
      const member = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : undefined;
      if (member) collect(member, fragment.selectionSet);
    }
  } else collect(type, set);
  return { keys };
}

function fragmentOf(document: DocumentNode, name: string) {
  const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
  if (fragment?.kind !== Kind.FRAGMENT_DEFINITION) throw new Error(`The document defines no fragment ${name}.`);
  return fragment;
}

/** GraphQL's answer (`data`) as REST and MCP give it: every key its wire name, in the same order; every enum value its spelling. */
export function answerToWire(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const answer = shaped(data, planOf(schema, document, operationName));
  return isRecord(answer) ? answer : data;
}

/** The wire key of the document's root field `field` (the key data[unwrap] is under once shaped). */
export function rootWireKey(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, field: string): string {
  return planOf(schema, document, operationName).keys.get(field)?.wire ?? field;
}

function shaped(value: unknown, plan: ShapePlan): unknown {
  if (Array.isArray(value)) return value.map((item) => shaped(item, plan));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const step = plan.keys.get(key);
    if (!step) out[key] = v;
    else if (step.spelled) out[step.wire] = spelled(v, step.spelled);
    else out[step.wire] = step.inner ? shaped(v, step.inner) : v;
  }
  return out;
}

function spelled(value: unknown, type: GraphQLEnumType): unknown {
  if (Array.isArray(value)) return value.map((v) => spelled(v, type));
  return typeof value === 'string' ? wireValueOf(type, value) : value;
}

/**
 * The inverse, for what a door sends: variables whose input objects are keyed as REST and MCP
 * document them (snake_case, or a field's wireName) get GraphQL's field names, and enum values in
 * any documented spelling and case GraphQL's names; a value that is none of an enum's is refused
 * here when its enum says how (in the resolver's words), else left for GraphQL to refuse. A key
 * that names no field is turned by the mechanical rule, so GraphQL refuses it by that name.
 */
export function variablesFromWire(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...variables };
  for (const definition of operationOf(document, operationName).variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (type && isInputType(type) && out[name] !== undefined) out[name] = fromWire(type, out[name], false);
  }
  return out;
}

/** `inBody`: the value sits in a JSON body (an input object), whose every key the door turns; a parameter's own value is left as sent. */
function fromWire(type: GraphQLInputType, value: unknown, inBody: boolean): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return fromWire(type.ofType, value, inBody);
  if (isListType(type)) return Array.isArray(value) ? value.map((v) => fromWire(type.ofType, v, inBody)) : fromWire(type.ofType, value, inBody);
  if (isEnumType(type)) {
    if (typeof value !== 'string') return inBody ? mechanically(value) : value; // GraphQL refuses it, in the words of a wrong shape
    const name = enumNameOf(type, value);
    if (name !== undefined) return name;
    const refuse = doorEnumOf(type).refuseUnknown;
    if (refuse) throw refuse(value);
    return value;
  }
  if (isInputObjectType(type) && isRecord(value)) {
    const byWire = new Map(Object.values(type.getFields()).map((f) => [wireNameOf(f), f] as const));
    const fields = type.getFields();
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        const field = byWire.get(key) ?? fields[key];
        return field ? [field.name, fromWire(field.type, v, true)] : [snakeToCamel(key), mechanically(v)];
      }),
    );
  }
  return inBody || isInputObjectType(type) ? mechanically(value) : value;
}

/** A value the schema does not describe (an unknown field, a JSON scalar): its keys turned by the mechanical rule, at every depth. */
function mechanically(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mechanically);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeToCamel(k), mechanically(v)]));
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
