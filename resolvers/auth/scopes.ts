/** The three scopes of SPEC 5; each stands alone (holding one grants no other). */
export const SCOPES = ['read', 'write', 'orders:place'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
