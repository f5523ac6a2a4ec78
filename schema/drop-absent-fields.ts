import { getNamedType, isObjectType, isUnionType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { absenceOf, wireNameOf } from './wire-field-extension.js';

interface Shape {
  readonly absentWhenNull: Map<string, string | undefined>;
  readonly children: Map<string, Shape>;
}

/**
 * Where a check leaves a key out (`domainUnicode` for an ASCII name, SPF's evaluation fields without
 * `ip`), GraphQL answers null; REST and MCP keep the answer as documented, without the key. Returns a
 * function that removes those nulls from an answer in wire names (after operations/wire-shape.ts).
 */
export function absentFieldDropper(schema: GraphQLSchema, typeName: string): (answer: unknown) => unknown {
  const shapes = new Map<string, Shape>();
  const shapeOf = (type: GraphQLNamedType): Shape => {
    const known = shapes.get(type.name);
    if (known) return known;
    const shape: Shape = { absentWhenNull: new Map(), children: new Map() };
    shapes.set(type.name, shape);
    const objects = isUnionType(type) ? type.getTypes() : isObjectType(type) ? [type] : [];
    for (const object of objects) {
      for (const field of Object.values(object.getFields())) {
        const wire = wireNameOf(field);
        const { absent, unless } = absenceOf(field);
        if (absent) {
          const sibling = unless === undefined ? undefined : object.getFields()[unless];
          if (unless !== undefined && !sibling) throw new Error(`${object.name}.${field.name}: absentUnless names no field ${unless}.`);
          shape.absentWhenNull.set(wire, sibling && wireNameOf(sibling));
        }
        const named = getNamedType(field.type);
        if ((isObjectType(named) || isUnionType(named)) && !shape.children.has(wire)) shape.children.set(wire, shapeOf(named));
      }
    }
    return shape;
  };
  const root = schema.getType(typeName);
  if (!root) throw new Error(`The schema has no ${typeName}.`);
  const top = shapeOf(root);
  const drop = (value: unknown, shape: Shape): unknown => {
    if (Array.isArray(value)) return value.map((v) => drop(v, shape));
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    const record = value;
    for (const [key, v] of Object.entries(record)) {
      if (v === null && shape.absentWhenNull.has(key)) {
        const unless = shape.absentWhenNull.get(key);
        if (unless === undefined || record[unless] === null || record[unless] === undefined) continue;
      }
      const child = shape.children.get(key);
      out[key] = child ? drop(v, child) : v;
    }
    return out;
  };
  return (answer) => drop(answer, top);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
