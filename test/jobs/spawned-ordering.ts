import { expect } from 'vitest';
import type { SpawnedServer } from '../support/spawn-server.js';
import { orderBody } from '../orders/support/ordering-fixture.js';

/** A demo account's key driving real server processes over HTTP, as a customer would. */
export function customer(key: string) {
  const call = async (server: SpawnedServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.apiUrl + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
  };
  return {
    call,
    /** Saves the sandbox test card through the setup link's page, as a person would. */
    async saveCard(server: SpawnedServer) {
      const link = await call(server, 'POST', '/v1/payment-method/setup-link', {
        success_url: 'https://example.com/saved',
        cancel_url: 'https://example.com/cancel',
      });
      expect(link.status).toBe(200);
      const token = new URL(String(link.body.url)).searchParams.get('token')!;
      const saved = await fetch(`${server.apiUrl}/sandbox/card?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, card_number: '4242424242424242', name: 'Kill Test' }).toString(),
      });
      expect(saved.status).toBe(303);
    },
    async addWebhook(server: SpawnedServer, url: string, events: string[]) {
      const created = await call(server, 'POST', '/v1/webhooks', { url, events });
      expect(created.status).toBe(200);
      return String(created.body.webhook_id ?? created.body.id);
    },
    async placeOrder(server: SpawnedServer, domains: string[], idempotencyKey: string) {
      const placed = await call(server, 'POST', '/v1/orders', orderBody(domains, 1), { 'idempotency-key': idempotencyKey });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return placed.body;
    },
  };
}

/** domain.live deliveries a receiver got for one domain (a retried one would show twice). */
export function liveDeliveries(received: readonly { body: string }[], domain: string): { id: string }[] {
  return received
    .map((r) => JSON.parse(r.body) as { id: string; type: string; data: { domain: string } })
    .filter((e) => e.type === 'domain.live' && e.data.domain === domain);
}
