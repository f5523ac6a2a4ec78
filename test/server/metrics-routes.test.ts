import { describe, expect, it } from 'vitest';
import { MAX_ROUTES, recordRequest, registry, routeOf } from '../../observability/metrics.js';

/** Every one of these is a route of its own to routeOf (letters only, under 40 characters). */
const madeUp = (prefix: string, i: number) => `/${prefix}-${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}`;

async function routes(): Promise<Set<string>> {
  const text = await registry.getSingleMetricAsString('http_requests_total');
  return new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!));
}

describe('request metrics', () => {
  it('fold ids out of routes', () => {
    expect(routeOf('/v1/orders/ORD-123?x=1')).toBe('/v1/orders/:id');
    expect(routeOf('/.platform/functions/check-dns')).toBe('/:id/functions/check-dns');
    expect(routeOf('/v1/portal/dashboard')).toBe('/v1/portal/dashboard');
  });

  it('made-up paths answered 404 count as "(unmatched)" and take no route of their own; an unknown id keeps its route', async () => {
    for (let i = 0; i < MAX_ROUTES + 200; i++) recordRequest('test', 'GET', madeUp('junk', i), 404, 0.001);
    const seen = await routes();
    expect(seen.has('(unmatched)')).toBe(true);
    expect([...seen].some((r) => r.startsWith('/junk-'))).toBe(false);
    recordRequest('test', 'GET', '/v1/portal/dashboard', 200, 0.001);
    recordRequest('test', 'PUT', '/v1/portal/orders/sub_nope_123/monitors', 404, 0.001);
    const after = await routes();
    expect(after.has('/v1/portal/dashboard')).toBe(true);
    expect(after.has('/v1/portal/orders/:id/monitors')).toBe(true);
  });

  it('keep at most MAX_ROUTES routes whatever the answers: series cannot grow without bound', async () => {
    for (let i = 0; i < MAX_ROUTES + 200; i++) recordRequest('test', 'GET', madeUp('made-up', i), 400, 0.001);
    const seen = await routes();
    expect(seen.size).toBeLessThanOrEqual(MAX_ROUTES + 2);
    expect(seen.has('(other)')).toBe(true);
  });
});
