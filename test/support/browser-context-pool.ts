import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * The browser contexts of this worker's Chromium that tests have handed back, kept open for the next
 * test that asks for one with the same options, instead of a new context each time.
 *
 * Why: a new context starts a renderer process of its own, and its first page compiles the portal's
 * scripts with an empty cache. Measured on 8 portal pages: a context each cost 7.97 s of Chromium
 * CPU, one context reused 2.74 s (about 1 s against 0.34 s a page). With some 150 contexts a run, that
 * was the largest share of the suite's CPU.
 *
 * What a test could leave behind goes on give-back: every page but the one holding the renderer
 * closes (and with it its sessionStorage, routes and dialogs), cookies and granted permissions are
 * cleared, and the listeners the test added through its handle are removed. What stays is the HTTP
 * cache of the portal's hashed, immutable assets, which is the point. localStorage is kept per origin,
 * and each test file's service has an origin (port) of its own; the portal uses none anyway.
 */

/** A context kept between lends. */
export interface PooledContext {
  readonly context: BrowserContext;
  /** The page that holds the context's renderer (browser.ts, keepRendererAlive): kept open. */
  readonly keepAlive: Page;
  /** The current lend's off-machine requests (localOnlyContext's request listener appends here). */
  offsite: string[];
}

/** Idle contexts kept per worker, all options together: each holds a renderer process (50-100 MB). */
const MAX_IDLE = 3;

interface Pool {
  readonly browser: Browser;
  readonly idle: Map<string, PooledContext[]>;
}

// On globalThis: test/support/fresh-modules.ts evaluates this module anew for each file, and the
// pool is what outlives a file. A relaunched browser starts an empty pool.
function pool(browser: Browser): Pool {
  const shared = globalThis as { svcContextPool?: Pool };
  if (shared.svcContextPool?.browser !== browser) shared.svcContextPool = { browser, idle: new Map() };
  return shared.svcContextPool;
}

/** An idle context opened with these options (their JSON is the key), taken out of the pool. */
export function takeIdleContext(browser: Browser, key: string): PooledContext | undefined {
  return pool(browser).idle.get(key)?.pop();
}

/** Forgets a context that closed (its browser died, or a test closed it through page.context()). */
export function forgetContext(browser: Browser, pooled: PooledContext): void {
  for (const list of pool(browser).idle.values()) {
    const at = list.indexOf(pooled);
    if (at >= 0) list.splice(at, 1);
  }
}

/** Empties a context a test handed back and keeps it, or closes it when it cannot be emptied or enough are kept. */
export async function keepContext(browser: Browser, key: string, pooled: PooledContext): Promise<void> {
  try {
    await Promise.all(
      pooled.context
        .pages()
        .filter((page) => page !== pooled.keepAlive)
        .map((page) => page.close()),
    );
    if (pooled.keepAlive.isClosed()) throw new Error("the page holding the context's renderer was closed");
    await pooled.context.clearCookies();
    await pooled.context.clearPermissions();
    const idle = pool(browser).idle;
    const kept = [...idle.values()].reduce((count, list) => count + list.length, 0);
    if (kept >= MAX_IDLE) throw new Error('enough idle contexts are kept');
    idle.set(key, [...(idle.get(key) ?? []), pooled]);
  } catch {
    await pooled.context.close().catch(() => undefined);
  }
}

type Listener = (...args: unknown[]) => unknown;

/**
 * The test's handle on a pooled context: close() hands it back (once) instead of closing it, and a
 * 'close' listener runs then; every other listener the test adds through the handle is removed at
 * give-back, so none reaches the next test. Methods are bound to the context (Playwright keeps
 * private state a proxy as `this` could not reach).
 */
export function lendContext(pooled: PooledContext, giveBack: () => Promise<void>): BrowserContext {
  const added: [string, Listener][] = [];
  const onClose: Listener[] = [];
  let returned = false;
  const handBack = async () => {
    if (returned) return;
    returned = true;
    for (const [event, listener] of added) pooled.context.off(event as 'page', listener);
    for (const listener of onClose.splice(0)) listener();
    await giveBack();
  };
  const subscribe = (event: string, listener: Listener, once: boolean) => {
    if (event === 'close') onClose.push(listener);
    else {
      added.push([event, listener]);
      if (once) pooled.context.once(event as 'page', listener);
      else pooled.context.on(event as 'page', listener);
    }
  };
  const handle: BrowserContext = new Proxy(pooled.context, {
    get(target, property) {
      if (property === 'close') return handBack;
      if (property === 'on' || property === 'addListener' || property === 'once')
        return (event: string, listener: Listener) => {
          subscribe(event, listener, property === 'once');
          return handle;
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as Listener).bind(target) : value;
    },
  });
  return handle;
}
