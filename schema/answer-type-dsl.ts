import type { ObjectRef } from '@pothos/core';
import { builder } from './builder.js';

/**
 * A compact way to declare the check answers' GraphQL types, field by field, from the answers'
 * snake_case wire names. The checks' answers are wide (about 300 fields over 15 checks), so each field
 * is one line: its wire name and a type spec. The GraphQL field is the camelCase of the wire name and
 * resolves from the snake_case property the check returns; the wire name is kept in the field's
 * extensions, so the REST operation documents alias every field back to it (scripts/print-schema.ts).
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

type AnyRef = ObjectRef<never, Record<string, unknown>> | string;
const refs = new Map<string, AnyRef>();

export const camelOf = (wire: string): string => wire.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function refOf(name: string): AnyRef {
  if (['String', 'Int', 'Float', 'Boolean', 'ID'].includes(name)) return name;
  const ref = refs.get(name);
  if (!ref) throw new Error(`Answer type "${name}" is used before it is declared.`);
  return ref;
}

/** Parses a type spec into what t.field takes. */
function parseSpec(spec: TypeSpec): { type: unknown; nullable: boolean; absent: boolean; absentUnless?: string } {
  const match = /^(.+?)(\?|~([a-z_]*))?$/.exec(spec);
  if (!match) throw new Error(`Bad type spec "${spec}".`);
  const [, body = spec, suffix, unless] = match;
  const absent = suffix?.startsWith('~') ?? false;
  const list = /^\[(.+)\]$/.exec(body);
  return { type: list ? [refOf(list[1] as string)] : refOf(body), nullable: suffix !== undefined, absent, ...(unless ? { absentUnless: unless } : {}) };
}

/** An enum whose GraphQL values are the wire values (lower-case words, as the checks answer them). */
export function answerEnum(name: string, values: readonly string[], description: string): void {
  // GraphQL answers an enum by its name, so a value that is not a GraphQL name (SPF's "+", "check-spf")
  // would change on the wire: such fields stay String, with their values in the description.
  const bad = values.filter((v) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(v));
  if (bad.length) throw new Error(`${name}: ${bad.join(', ')} cannot be GraphQL enum values; declare the field as String.`);
  refs.set(name, builder.enumType(name, { description, values: values as readonly string[] as never }) as unknown as AnyRef);
}

type FieldSpecs = Readonly<Record<string, TypeSpec | readonly [TypeSpec, string]>>;

/** Declares an object type; `fields` maps wire names to a type spec, or to [spec, description]. */
export function answerObject(name: string, description: string, fields: FieldSpecs, interfaces: readonly string[] = []): void {
  const ref = builder.objectRef<Record<string, unknown>>(name);
  refs.set(name, ref as unknown as AnyRef);
  ref.implement({
    description,
    interfaces: interfaces.map((i) => refOf(i)) as never,
    fields: (t) => fieldsOf(t, fields),
  });
}

/** Declares an interface; objects naming it get its fields first. */
export function answerInterface(name: string, description: string, fields: FieldSpecs): void {
  const ref = builder.interfaceRef<Record<string, unknown>>(name);
  refs.set(name, ref as unknown as AnyRef);
  ref.implement({ description, fields: (t) => fieldsOf(t, fields) });
}

// `t` is an object's or an interface's field builder: their types differ only in the parent type, which is a plain record here.
function fieldsOf(t: any, fields: FieldSpecs): Record<string, never> {
  return Object.fromEntries(
    Object.entries(fields).map(([wire, entry]): [string, never] => {
      const [spec, text] = typeof entry === 'string' ? [entry, undefined] : entry;
      const { type, nullable, absent, absentUnless } = parseSpec(spec);
      const extensions: WireExtensions = { wireName: wire, absentWhenNull: absent, ...(absentUnless ? { absentUnless } : {}) };
      const ref: never = t.field({
        type: type as never,
        nullable: nullable as never,
        ...(text ? { description: text } : {}),
        extensions: extensions as unknown as Record<string, unknown>,
        resolve: (parent: Record<string, unknown>) => (parent[wire] ?? null) as never,
      }) as never;
      return [camelOf(wire), ref];
    }),
  );
}

/** A union of declared object types; resolveType names the member a value is. */
export function answerUnion(name: string, description: string, members: readonly string[], resolveType: (value: Record<string, unknown>) => string): AnyRef {
  const ref = builder.unionType(name, { description, types: members.map((m) => refOf(m)) as never, resolveType });
  refs.set(name, ref as unknown as AnyRef);
  return ref as unknown as AnyRef;
}

/** A scalar for one genuinely open-ended part of an answer, passed through as the check wrote it. */
export function answerScalar(name: string, description: string): void {
  builder.scalarType(name as never, { description, serialize: (value: unknown) => value, parseValue: (value: unknown) => value } as never);
  refs.set(name, name);
}

/** The ref of a declared answer type, for a query field's `type`. */
export function answerRef(name: string): AnyRef {
  return refOf(name);
}
