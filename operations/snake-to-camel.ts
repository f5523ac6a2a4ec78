/** first_invoice → firstInvoice: the mechanical rule for a parameter's variable and a key no input field names (operations/wire-shape.ts). */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Renames every object key, at every depth, by the mechanical rule alone (what a body is to GraphQL when every key is a field's). */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeToCamel(k), camelizeKeys(v)]));
  }
  return value;
}
