import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_JS_GZIP_KB, PORTAL_DIST, portalFirstLoad } from '../../bench/portal-first-load.js';

// The build under test is the one vitest's globalSetup made (test/support/build-portal.ts).
describe("the portal's first load", () => {
  it(`is at most ${FIRST_LOAD_JS_GZIP_KB} KB of gzipped JavaScript, with the signed-in pages in chunks of their own`, () => {
    const f = portalFirstLoad();
    expect(f.js_gzip / 1024).toBeLessThanOrEqual(FIRST_LOAD_JS_GZIP_KB);
    // Every page the navigation lists is fetched when opened, not before.
    const later = f.lazy.map((c) => c.file).join(' ');
    for (const page of ['dashboard', 'orders', 'new-order', 'billing', 'settings', 'domain-setup', 'analytics'])
      expect(later, `${page} is not a chunk of its own`).toMatch(new RegExp(`assets/${page}-`));
    // index.html preloads exactly the first load's chunks, so the figure is what a browser fetches.
    const html = readFileSync(join(PORTAL_DIST, 'index.html'), 'utf8');
    for (const c of f.js) expect(html).toContain(`/portal/${c.file}`);
    for (const c of f.lazy) expect(html).not.toContain(c.file);
  });

  it("carries no page's GraphQL documents but the session's own", () => {
    const firstLoad = portalFirstLoad()
      .js.map((c) => readFileSync(join(PORTAL_DIST, c.file), 'utf8'))
      .join('\n');
    // The minifier writes the AST's strings in any quotes: `value:"Viewer"` or value:`Viewer`.
    const names = (operation: string) => new RegExp(`value:["'\`]${operation}["'\`]`);
    expect(firstLoad).toMatch(names('Viewer'));
    for (const operation of ['Dashboard', 'Billing', 'PlaceOrder', 'DomainSetup', 'ApiKeys']) expect(firstLoad).not.toMatch(names(operation));
  });
});
