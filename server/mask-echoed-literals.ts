import {
  getNamedType,
  GraphQLError,
  isInputObjectType,
  Kind,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isSecretInput } from '../schema/secret-input-extension.js';

/** The most of a literal a refusal repeats: a query may hold a string of megabytes. */
const LITERAL_SHOWN = 40;
const SECRET_SHOWN = '(a secret value, not shown)';

const VALUE_KINDS: ReadonlySet<string> = new Set([Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.LIST, Kind.OBJECT]);

/**
 * GraphQL's refusal of a literal in a query ("Expected value of type "String", found [...]; String
 * cannot represent a non string value: [...]") prints the literal, as sent, into its message. This
 * rewrites such messages: a literal inside a field or argument the schema marks secret
 * (schema/secret-input-extension.ts) is never shown, any other is cut to its first characters. The
 * errors are found by their nodes (a value node the message prints), never by reading the message.
 */
export const maskEchoedLiterals: Plugin = {
  onValidate({ params }) {
    return ({ result, setResult }) => {
      if (!result.length) return;
      setResult(maskLiterals(params.schema, params.documentAST, result));
    };
  },
};

export function maskLiterals(schema: GraphQLSchema, document: DocumentNode, errors: readonly unknown[]): unknown[] {
  const echoing = (error: unknown) => (error instanceof GraphQLError ? error.nodes?.find((n) => VALUE_KINDS.has(n.kind)) : undefined);
  if (!errors.some(echoing)) return [...errors];
  const secret = secretValueNodes(schema, document);
  return errors.map((error) => {
    const node = echoing(error);
    if (!node || !(error instanceof GraphQLError)) return error;
    const printed = print(node);
    const shown = secret.has(node) ? SECRET_SHOWN : printed.length > LITERAL_SHOWN ? `${printed.slice(0, LITERAL_SHOWN)}…` : printed;
    if (shown === printed || !error.message.includes(printed)) return error;
    return new GraphQLError(error.message.split(printed).join(shown), {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      originalError: error.originalError,
      extensions: error.extensions,
    });
  });
}

/** The value nodes of the document that sit inside an argument or input field the schema marks secret. */
function secretValueNodes(schema: GraphQLSchema, document: DocumentNode): ReadonlySet<ASTNode> {
  const typeInfo = new TypeInfo(schema);
  const secret = new Set<ASTNode>();
  const opened: boolean[] = [];
  let depth = 0;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      enter(node) {
        if (node.kind === Kind.OBJECT_FIELD) {
          const parent = getNamedType(typeInfo.getParentInputType());
          const marked = isInputObjectType(parent) && isSecretInput(parent.getFields()[node.name.value]?.extensions);
          opened.push(marked);
          if (marked) depth++;
        } else if (node.kind === Kind.ARGUMENT) {
          const marked = isSecretInput(typeInfo.getArgument()?.extensions);
          opened.push(marked);
          if (marked) depth++;
        } else if (depth > 0 && VALUE_KINDS.has(node.kind)) secret.add(node);
      },
      leave(node) {
        if ((node.kind === Kind.OBJECT_FIELD || node.kind === Kind.ARGUMENT) && opened.pop()) depth--;
      },
    }),
  );
  return secret;
}
