/** The extensions of a field whose wire name differs from its GraphQL name: `extensions: wireName('lookup_count')`. */
export function wireName(name: string): { readonly wireName: string } {
  return { wireName: name };
}
