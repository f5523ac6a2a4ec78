import {
  Kind,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

import { wireValuesOf } from '../schema/door-enum-extension.js';
import { absenceOf, wireNameOf } from '../schema/wire-field-extension.js';

export type JsonSchema = Record<string, unknown>;

/** A schema object (not null, not an array): what a keyword holding one schema (items, a property) may be read as. */
export function isJsonSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schemas of a keyword holding a list of them (anyOf); none when it holds something else. */
export function schemaList(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.filter(isJsonSchema) : [];
}

/** The strings of a keyword holding a list of them (required, enum); none when it holds something else. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The component a `$ref` such as `#/components/schemas/Error` names: the part after its last "/". */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** first_invoice ← firstInvoice: documented names are the snake ones (schema/wire-field-extension.ts). */
export { camelToSnake } from '../schema/wire-field-extension.js';

const isBuiltIn = (name: string): boolean => ['String', 'ID', 'Int', 'Float', 'Boolean', 'DateTime'].includes(name);

/** Our scalars on the wire. The check answers' two open-ended scalars are any JSON value, so they get the empty schema. */
function scalarSchema(name: string, description?: string | null): JsonSchema {
  const base: JsonSchema =
    (
      {
        String: { type: 'string' },
        ID: { type: 'string' },
        Int: { type: 'integer' },
        Float: { type: 'number' },
        Boolean: { type: 'boolean' },
        DateTime: { type: 'string', format: 'date-time' },
      } as Record<string, JsonSchema>
    )[name] ?? {};
  return description ? { ...base, description } : base;
}

/** Adds null to a schema's allowed values (OpenAPI 3.1 is JSON Schema 2020-12: `type: [T, "null"]`). */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  return schema; // no type: already any value, null included
}

/**
 * The JSON Schema of an operation's answer (its `data` object), derived from the selection set
 * against the schema: a field's wire name (or an alias) gives its property name as operations/wire-shape.ts
 * names the answer's key, nullable fields allow null, and every
 * selected field is required (GraphQL always returns what was selected, null or not).
 */
export function selectionSchema(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): JsonSchema {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) throw new Error(`The schema has no ${operation.operation} type.`);

  function objectSchema(typeName: string, selectionSet: SelectionSetNode, description?: string | null): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const type = schema.getType(typeName);
    if (!type || !(isObjectType(type) || isInterfaceType(type))) return { type: 'object' };
    const fields = type.getFields();
    // A fragment on another member of a union (or an interface this type lacks) selects nothing here.
    const applies = (condition: string | undefined): boolean =>
      !condition || condition === typeName || (isObjectType(type) && type.getInterfaces().some((i) => i.name === condition));
    const absent = new Set<string>();
    const collect = (set: SelectionSetNode): void => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value === '__typename') {
            properties[selection.alias?.value ?? '__typename'] = { type: 'string' };
            continue;
          }
          const field = fields[selection.name.value];
          if (!field) throw new Error(`${typeName} has no field ${selection.name.value}.`);
          const key = selection.alias?.value ?? wireNameOf(field);
          // A field the answer leaves out instead of answering null (schema/wire-field-extension.ts, absentWhenNull).
          const absence = absenceOf(field);
          if (absence.absent) {
            absent.add(key);
            // Null only where it is present beside its sibling (`~ip`): otherwise left out, never null.
            properties[key] = absence.unless
              ? outputSchema(field.type, selection.selectionSet, field.description)
              : innerOutputSchema(field.type, selection.selectionSet, field.description);
          } else {
            properties[key] = outputSchema(field.type, selection.selectionSet, field.description);
          }
        } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          if (!fragment) throw new Error(`Fragment ${selection.name.value} is not defined.`);
          if (applies(fragment.typeCondition.name.value)) collect(fragment.selectionSet);
        } else if (applies(selection.typeCondition?.name.value)) {
          collect(selection.selectionSet);
        }
      }
    };
    collect(selectionSet);
    const required = Object.keys(properties).filter((k) => !absent.has(k));
    const out: JsonSchema = { type: 'object', properties, required, additionalProperties: false };
    const text = description ?? type.description;
    return text ? { description: text, ...out } : out;
  }

  function outputSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, description?: string | null): JsonSchema {
    if (isNonNullType(type)) return innerOutputSchema(type.ofType, selectionSet, description);
    return orNull(innerOutputSchema(type, selectionSet, description));
  }

  function innerOutputSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, description?: string | null): JsonSchema {
    if (isListType(type)) {
      const items = outputSchema(type.ofType, selectionSet);
      return description ? { type: 'array', description, items } : { type: 'array', items };
    }
    const named = getNamedType(type);
    if (isEnumType(named)) {
      const out: JsonSchema = { type: 'string', enum: wireValuesOf(named) };
      return (description ?? named.description) ? { ...out, description: description ?? named.description } : out;
    }
    if (isScalarType(named)) return scalarSchema(named.name, description ?? (isBuiltIn(named.name) ? undefined : named.description));
    if (!selectionSet) return { type: 'object' };
    if (isUnionType(named)) {
      const anyOf = named.getTypes().map((member) => objectSchema(member.name, selectionSet));
      return description ? { description, anyOf } : { anyOf };
    }
    return objectSchema(named.name, selectionSet, description);
  }

  return objectSchema(root.name, operation.selectionSet);
}

/**
 * The JSON Schema of a GraphQL input type, with its fields' wire names (operations/wire-shape.ts turns
 * them into GraphQL's) and unknown fields refused, as the schema refuses them. Input objects are registered in
 * `components` under their GraphQL name and referenced, so a shared type (a mailbox) is written once.
 */
export function inputSchema(type: GraphQLInputType, components: Record<string, JsonSchema>, description?: string | null): JsonSchema {
  if (isNonNullType(type)) return innerInputSchema(type.ofType, components, description);
  return orNull(innerInputSchema(type, components, description));
}

function innerInputSchema(type: GraphQLInputType, components: Record<string, JsonSchema>, description?: string | null): JsonSchema {
  if (isListType(type)) {
    const items = inputSchema(type.ofType, components);
    return description ? { type: 'array', description, items } : { type: 'array', items };
  }
  const named = getNamedType(type);
  if (isEnumType(named)) {
    const out: JsonSchema = { type: 'string', enum: wireValuesOf(named) };
    return description ? { ...out, description } : out;
  }
  if (isScalarType(named)) return scalarSchema(named.name, description);
  if (!isInputObjectType(named)) return {};
  if (!components[named.name]) {
    components[named.name] = { type: 'object' }; // placeholder first: input types may refer to themselves
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(named.getFields())) {
      const name = wireNameOf(field);
      properties[name] =
        saysRequired(field.description) && !isNonNullType(field.type)
          ? innerInputSchema(field.type, components, field.description)
          : inputSchema(field.type, components, field.description);
      if (field.defaultValue !== undefined) properties[name] = { ...properties[name], default: field.defaultValue };
      // Limits the resolvers enforce (enum values, lengths, counts), declared on the field in schema/.
      const limits = (field.extensions as { jsonSchema?: JsonSchema } | undefined)?.jsonSchema;
      if (limits) properties[name] = withLimits(properties[name] as JsonSchema, limits);
      if ((isNonNullType(field.type) && field.defaultValue === undefined) || saysRequired(field.description)) required.push(name);
    }
    components[named.name] = {
      ...(named.description ? { description: named.description } : {}),
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    };
  }
  const ref = { $ref: `#/components/schemas/${named.name}` };
  return description ? { ...ref, description } : ref;
}

/** Puts limits on the schema that holds the value: beside a $ref or inside a nullable's anyOf. */
function withLimits(schema: JsonSchema, limits: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) {
    return { ...schema, anyOf: schemaList(schema.anyOf).map((s) => (s.type === 'null' ? s : { ...s, ...limits })) };
  }
  if (Array.isArray(schema.type) && Array.isArray(limits.enum)) return { ...schema, ...limits, enum: [...(limits.enum as unknown[]), null] };
  return { ...schema, ...limits };
}

/**
 * Some inputs are nullable in GraphQL only so that their resolver, not GraphQL validation, refuses a
 * missing value with a sentence (a 422 naming the field). Their description starts "Required:", and
 * the documents list them as required, which is what a caller must do.
 */
export function saysRequired(description: string | null | undefined): boolean {
  return typeof description === 'string' && /^Required\b/.test(description);
}
