import type { SandboxCard, SandboxSetupToken, SandboxStore, SandboxSubscription } from './sandbox-store.js';

/**
 * SandboxStore in memory: the reference behaviour for the database implementation, and what the
 * payment tests use. Each method completes without awaiting in between, which is what makes the
 * token redemption and the keyed insert atomic here (a database needs a transaction and a unique index).
 */
export function createMemorySandboxStore(): SandboxStore & { readonly subscriptions: () => readonly SandboxSubscription[] } {
  const tokens = new Map<string, SandboxSetupToken>();
  const cards = new Map<string, SandboxCard>();
  const subscriptions = new Map<string, SandboxSubscription>();
  const byKey = (customerId: string, key: string): string => `${customerId}\u0000${key}`;

  return {
    async saveSetupToken(token) {
      tokens.set(token.token, token);
    },
    async findSetupToken(token) {
      return tokens.get(token) ?? null;
    },
    async redeemSetupToken(token, card, now) {
      const row = tokens.get(token);
      if (!row || row.used_at !== null || row.expires_at.getTime() <= now.getTime()) return null;
      const used = { ...row, used_at: now };
      tokens.set(token, used);
      cards.set(row.customer_id, { ...card, customer_id: row.customer_id });
      return used;
    },
    async getCard(customerId) {
      return cards.get(customerId) ?? null;
    },
    async recordSubscription(subscription) {
      const key = byKey(subscription.customer_id, subscription.idempotency_key);
      const earlier = subscriptions.get(key);
      if (earlier) return { subscription: earlier, inserted: false };
      subscriptions.set(key, subscription);
      return { subscription, inserted: true };
    },
    async findSubscriptionByIdempotencyKey(customerId, idempotencyKey) {
      return subscriptions.get(byKey(customerId, idempotencyKey)) ?? null;
    },
    async setSubscriptionStatus(subscriptionId, status) {
      for (const [key, row] of subscriptions) if (row.subscription_id === subscriptionId) subscriptions.set(key, { ...row, status });
    },
    subscriptions: () => [...subscriptions.values()],
  };
}
