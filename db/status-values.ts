/**
 * The values each status column may hold, as the doors document them. The columns in db/schema.ts
 * are typed with these, so a writer cannot store a spelling the GraphQL enums (schema/status-enums.ts)
 * would refuse to serialise; migration 2026_11_28_0800 holds the database to the same lists.
 */

/** docs/api.md "Build states": queued → building → waiting_for_dns → live; needs_attention. */
export const BUILD_STATES = ['queued', 'building', 'waiting_for_dns', 'live', 'needs_attention'] as const;
export type BuildState = (typeof BUILD_STATES)[number];

/**
 * An order's status follows its Stripe subscription, spelled as documented: Stripe's `canceled` and
 * `incomplete_expired` are both `cancelled` here (resolvers/orders/order-status.ts maps them).
 */
export const ORDER_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Stripe's invoice statuses, unchanged. */
export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const CHANGE_REQUEST_STATUSES = ['open', 'done', 'declined'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

export const REFERRAL_EARNING_STATUSES = ['pending', 'paid'] as const;
export type ReferralEarningStatus = (typeof REFERRAL_EARNING_STATUSES)[number];

/** pending: retried with backoff for a day; delivered; failed (given up). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
