import type { EnumRef, InterfaceRef, ObjectRef, OutputRef } from '@pothos/core';
import { builder } from './builder.js';

/**
 * A compact way to declare the check answers' GraphQL types, field by field, from the answers'
 * snake_case wire names. The checks' answers are wide (about 300 fields over 15 checks), so each field
 * is one line: its wire name and a type spec. The GraphQL field is the camelCase of the wire name and
 * resolves from the snake_case property the check returns; the wire name is kept in the field's
 * extensions, so the REST operation documents alias every field back to it (scripts/print-schema.ts).
 *
 * Each object type is declared over the resolver's own return type (`answerObject<CheckSpfAnswer>`):
 * a wire name the resolver does not return is a type error, and the Pothos ref carries that shape.
 *
 * A type spec is a type name (String, Int, Float, Boolean, or a name declared here), optionally in
 * brackets for a list of non-null items, then a suffix:
 * - none: non-null;
 * - `?`: nullable (the check answers null);
 * - `~`: nullable in GraphQL and *absent* from the REST answer when null (the check leaves the key
 *   out: `domain_unicode` for an ASCII name);
 * - `~name`: the same, but only when the sibling `name` is absent too (SPF's `explanation` is null
 *   with `ip` and left out without it).
 */
export type TypeSpec = string;

/** Wire name (snake_case) of a GraphQL field, read by the document generator and the REST pruning. */
export interface WireExtensions {
  readonly wireName: string;
  readonly absentWhenNull: boolean;
  readonly absentUnless?: string;
}

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The scalars a spec may name: GraphQL's own and the two open-ended parts of the answers (builder.ts). */
const SCALARS = ['String', 'Int', 'Float', 'Boolean', 'ID', 'SpfRecordTree', 'ProviderCounts'] as const;
type ScalarName = (typeof SCALARS)[number];
type AnswerType = ScalarName | OutputRef;

const isScalarName = (name: string): name is ScalarName => SCALARS.some((s) => s === name);

const types = new Map<string, OutputRef>();
const objects = new Map<string, ObjectRef<Types, unknown>>();
const enums = new Map<string, EnumRef<Types, string>>();

export const camelOf = (wire: string): string => wire.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function refOf(name: string): AnswerType {
  if (isScalarName(name)) return name;
  const ref = types.get(name);
  if (!ref) throw new Error(`Answer type "${name}" is used before it is declared.`);
  return ref;
}

function objectOf(name: string): ObjectRef<Types, unknown> {
  const ref = objects.get(name);
  if (!ref) throw new Error(`Answer object "${name}" is used before it is declared.`);
  return ref;
}

interface ParsedSpec {
  readonly type: AnswerType | [AnswerType];
  readonly nullable: boolean;
  readonly absent: boolean;
  readonly absentUnless?: string;
}

/** Parses a type spec into what t.field takes. */
function parseSpec(spec: TypeSpec): ParsedSpec {
  const match = /^(.+?)(\?|~([a-z_]*))?$/.exec(spec);
  if (!match) throw new Error(`Bad type spec "${spec}".`);
  const [, body = spec, suffix, unless] = match;
  const absent = suffix?.startsWith('~') ?? false;
  const list = /^\[(.+)\]$/.exec(body)?.[1];
  return { type: list === undefined ? refOf(body) : [refOf(list)], nullable: suffix !== undefined, absent, ...(unless ? { absentUnless: unless } : {}) };
}

/** An enum whose GraphQL values are the wire values (lower-case words, as the checks answer them). */
export function answerEnum(name: string, values: readonly string[], description: string): void {
  // GraphQL answers an enum by its name, so a value that is not a GraphQL name (SPF's "+", "check-spf")
  // would change on the wire: such fields stay String, with their values in the description.
  const bad = values.filter((v) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(v));
  if (bad.length) throw new Error(`${name}: ${bad.join(', ')} cannot be GraphQL enum values; declare the field as String.`);
  const ref = builder.enumType(name, { description, values });
  types.set(name, ref);
  enums.set(name, ref);
}

/** The wire names an answer of shape `T` may declare, each with a type spec or [spec, description]. */
export type AnswerFields<T> = { readonly [K in keyof T & string]?: TypeSpec | readonly [TypeSpec, string] };

/** Without a type argument no field fits, so every answer type names the resolver's type it mirrors. */
interface NameTheResolverType {
  readonly name_the_resolver_type_as_the_type_argument: never;
}

/**
 * Declares an object type over `T`, the resolver's own type for that part of the answer: `fields`
 * maps wire names (keys of `T`) to a type spec, or to [spec, description].
 */
export function answerObject<T extends object = NameTheResolverType>(
  name: string,
  description: string,
  fields: AnswerFields<NoInfer<T>>,
  interfaces: readonly InterfaceRef<Types, unknown>[] = [],
): ObjectRef<Types, T> {
  const ref = builder.objectRef<T>(name);
  types.set(name, ref);
  objects.set(name, ref);
  ref.implement({
    description,
    interfaces: [...interfaces],
    fields: (t) =>
      Object.fromEntries(
        wireFields(fields).map((f) => [
          camelOf(f.wire),
          t.field({
            type: f.type,
            nullable: f.nullable,
            description: f.description,
            extensions: { ...f.extensions },
            resolve: (parent) => wireValue(parent, f.wire),
          }),
        ]),
      ),
  });
  return ref;
}

/** Declares an interface over `T`; objects naming it get its fields first. */
export function answerInterface<T extends object = NameTheResolverType>(
  name: string,
  description: string,
  fields: AnswerFields<NoInfer<T>>,
): InterfaceRef<Types, T> {
  const ref = builder.interfaceRef<T>(name);
  types.set(name, ref);
  ref.implement({
    description,
    fields: (t) =>
      Object.fromEntries(
        wireFields(fields).map((f) => [
          camelOf(f.wire),
          t.field({
            type: f.type,
            nullable: f.nullable,
            description: f.description,
            extensions: { ...f.extensions },
            resolve: (parent) => wireValue(parent, f.wire),
          }),
        ]),
      ),
  });
  return ref;
}

/** One field as t.field takes it, from its wire name and spec. */
interface WireField {
  readonly wire: string;
  readonly type: AnswerType | [AnswerType];
  readonly nullable: boolean;
  readonly description?: string;
  readonly extensions: WireExtensions;
}

function wireFields(fields: Readonly<Record<string, TypeSpec | readonly [TypeSpec, string] | undefined>>): WireField[] {
  return Object.entries(fields).flatMap(([wire, entry]) => {
    if (entry === undefined) return [];
    const [spec, text] = typeof entry === 'string' ? [entry, undefined] : entry;
    const { type, nullable, absent, absentUnless } = parseSpec(spec);
    const extensions: WireExtensions = { wireName: wire, absentWhenNull: absent, ...(absentUnless ? { absentUnless } : {}) };
    return [{ wire, type, nullable, ...(text ? { description: text } : {}), extensions }];
  });
}

/** The property `wire` of a resolver's answer, null when it is left out. */
function wireValue(parent: object, wire: string): unknown {
  for (const [key, value] of Object.entries(parent)) if (key === wire) return value ?? null;
  return null;
}

/** A union of declared object types; resolveType names the member a value is. */
export function answerUnion(name: string, description: string, members: readonly string[], resolveType: (value: object) => string): OutputRef {
  const ref = builder.unionType(name, {
    description,
    types: members.map((m) => objectOf(m)),
    resolveType: (value) => resolveType(typeof value === 'object' && value !== null ? value : {}),
  });
  types.set(name, ref);
  return ref;
}

/** A scalar for one genuinely open-ended part of an answer, passed through as the check wrote it. */
export function answerScalar(name: 'SpfRecordTree' | 'ProviderCounts', description: string): void {
  builder.scalarType(name, { description, serialize: (value) => value, parseValue: (value) => value });
}

/** The ref of a declared answer enum, for an argument's `type`. */
export function answerEnumRef(name: string): EnumRef<Types, string> {
  const ref = enums.get(name);
  if (!ref) throw new Error(`Answer enum "${name}" is used before it is declared.`);
  return ref;
}
