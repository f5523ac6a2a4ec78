/**
 * The schema's own marking of an input field or argument that holds a secret (a TSIG secret, an API
 * token, a password): `extensions: SECRET_INPUT`. A refusal never repeats such a value: GraphQL's
 * messages about a literal in a query are rewritten without it (server/mask-echoed-literals.ts), and
 * variables are refused from their structure, echoing no value at all (server/refuse-bad-variables.ts).
 */
export const SECRET_INPUT = { secret: true } as const;

export function isSecretInput(extensions: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return extensions?.secret === true;
}
