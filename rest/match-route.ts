import type { HttpMethod, OperationRow } from '../operations/operation-table.js';

export interface RouteMatch {
  readonly row: OperationRow;
  readonly pathParams: Readonly<Record<string, string>>;
}

export type RouteLookup =
  | { readonly kind: 'found'; readonly match: RouteMatch }
  | { readonly kind: 'wrong_method'; readonly allow: readonly HttpMethod[] }
  | { readonly kind: 'not_found' };

interface CompiledRoute {
  readonly row: OperationRow;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

/** Compiles the rows' path templates once; a lookup tells "no such path" (404) from "no such method" (405). */
export function createRouteMatcher(rows: readonly OperationRow[]): (method: string, path: string) => RouteLookup {
  const routes: CompiledRoute[] = rows.map((row) => {
    const names: string[] = [];
    const pattern = new RegExp(
      '^' +
        row.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_m, a?: string, b?: string) => {
          // One of the two groups matched: the escaped or the plain {name}.
          names.push(a ?? b ?? '');
          return '([^/]+)';
        }) +
        '/?$',
    );
    return { row, pattern, names };
  });
  return (method, path) => {
    const allow = new Set<HttpMethod>();
    for (const route of routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      if (route.row.method === method || (method === 'HEAD' && route.row.method === 'GET')) {
        let pathParams: Record<string, string>;
        try {
          pathParams = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
        } catch {
          return { kind: 'not_found' };
        }
        return { kind: 'found', match: { row: route.row, pathParams } };
      }
      allow.add(route.row.method);
    }
    return allow.size ? { kind: 'wrong_method', allow: [...allow] } : { kind: 'not_found' };
  };
}
