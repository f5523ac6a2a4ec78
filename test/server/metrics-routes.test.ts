import { describe, expect, it } from 'vitest';
import { MAX_ROUTES, recordRequest, registry, routeOf } from '../../server/metrics.js';

describe('request metrics', () => {
  it('fold ids out of routes', () => {
    expect(routeOf('/v1/orders/ORD-123?x=1')).toBe('/v1/orders/:id');
    expect(routeOf('/.platform/functions/check-dns')).toBe('/:id/functions/check-dns');
    expect(routeOf('/v1/portal/dashboard')).toBe('/v1/portal/dashboard');
  });

  it('keep at most MAX_ROUTES routes: made-up paths cannot grow the series without bound', async () => {
    // Every one of these is a route of its own to routeOf (letters only, under 40 characters).
    for (let i = 0; i < MAX_ROUTES + 200; i++)
      recordRequest('test', 'GET', `/made-up-${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}`, 404, 0.001);
    const text = await registry.getSingleMetricAsString('http_requests_total');
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect(routes.size).toBeLessThanOrEqual(MAX_ROUTES + 1);
    expect(routes.has('(other)')).toBe(true);
  });
});
