/** first_invoice → firstInvoice; the one mapping from REST bodies to GraphQL input variables. */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Renames every object key, at every depth; values are left as they are. */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeToCamel(k), camelizeKeys(v)]));
  }
  return value;
}
