import { readFileSync } from 'node:fs';

/**
 * The portal's signed-in pages as web/portal/src/routes.tsx lists them, read from its text: the
 * root typecheck has no JSX and no DOM, so the .tsx (and every page it imports) stays out of the
 * tests' module graph. Page tests loop over this, so a page added to routes.tsx is checked at once.
 */
export interface PortalRouteEntry {
  readonly path: string;
  readonly label: string;
  /** The page's name for screenshots: "dashboard" for '/', otherwise the path without its slash. */
  readonly name: string;
}

export const ROUTES_FILE = new URL('../../web/portal/src/routes.tsx', import.meta.url);

const ENTRY = /\{\s*path:\s*'([^']*)',\s*label:\s*'([^']*)',\s*component:\s*(\w+)\s*\}/g;

/** Every `{ path, label, component }` entry of the routes array, in the navigation's order. */
export function readPortalRoutes(source = readFileSync(ROUTES_FILE, 'utf8')): PortalRouteEntry[] {
  return [...source.matchAll(ENTRY)].map((m) => ({
    path: m[1]!,
    label: m[2]!,
    name: m[1] === '/' ? 'dashboard' : m[1]!.slice(1).replaceAll('/', '-'),
  }));
}

/** How many entries the routes array holds by a looser count (each `path: '...'`), to catch an entry the pattern missed. */
export function countRoutePaths(source = readFileSync(ROUTES_FILE, 'utf8')): number {
  return source.match(/\bpath:\s*['"`]/g)?.length ?? 0;
}

/** The pages a signed-out visitor sees (app.tsx's signed-out switch), with their screenshot names. */
export const SIGNED_OUT_PAGES = [
  { path: '/', name: 'sign-in' },
  { path: '/sign-up', name: 'sign-up' },
  { path: '/reset-password', name: 'reset-password' },
  { path: '/accept-invitation', name: 'accept-invitation' },
  { path: '/confirm-sign-up', name: 'confirm-sign-up' },
] as const;
