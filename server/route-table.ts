import type { FetchHandler, RequestInfo } from './serve-http.js';

/** What a route's handler is told beside the Request: the listener's facts, the URL parsed once and its path. */
export interface RoutedInfo extends RequestInfo {
  readonly url: URL;
  readonly path: string;
}

/** A route's answer, or null when the request is not its after all (then the later routes are asked). */
export type RouteHandler = (request: Request, info: RoutedInfo) => Promise<Response | null> | Response | null;

/**
 * One entry of a listener's route table: the exact paths it answers, the path prefix it answers, or
 * (neither) every path it is asked about, which is how a door with its own matcher (REST's operation
 * table) sits at the end.
 */
export interface Route {
  readonly paths?: readonly string[];
  readonly prefix?: string;
  readonly handle: RouteHandler;
}

/**
 * A listener as a table of routes: each request is offered to the routes for its exact path, then to
 * the routes whose prefix it starts with, then to the routes for every path, each group in the order
 * the table lists it, until one answers; `notFound` answers what none takes. No two routes of a table
 * share an exact path or overlap by prefix, so the order of the groups decides nothing but speed: an
 * exact path is one Map lookup.
 */
export function routeTable(
  routes: readonly Route[],
  notFound: (request: Request, info: RoutedInfo) => Response,
  /** Told of every request before any route (the account listener notes the origin it is reached at). */
  onRequest?: (request: Request, info: RoutedInfo) => void,
): FetchHandler {
  const exact = new Map<string, RouteHandler[]>();
  const prefixed: { readonly prefix: string; readonly handle: RouteHandler }[] = [];
  const everywhere: RouteHandler[] = [];
  for (const route of routes) {
    for (const path of route.paths ?? []) exact.set(path, [...(exact.get(path) ?? []), route.handle]);
    if (route.prefix !== undefined) prefixed.push({ prefix: route.prefix, handle: route.handle });
    if (!route.paths && route.prefix === undefined) everywhere.push(route.handle);
  }
  return async function routed(request, requestInfo) {
    const url = requestInfo.url ?? new URL(request.url);
    const info: RoutedInfo = { ...requestInfo, url, path: url.pathname };
    onRequest?.(request, info);
    for (const handle of exact.get(info.path) ?? []) {
      const answer = await handle(request, info);
      if (answer) return answer;
    }
    for (const { prefix, handle } of prefixed) {
      if (!info.path.startsWith(prefix)) continue;
      const answer = await handle(request, info);
      if (answer) return answer;
    }
    for (const handle of everywhere) {
      const answer = await handle(request, info);
      if (answer) return answer;
    }
    return notFound(request, info);
  };
}
