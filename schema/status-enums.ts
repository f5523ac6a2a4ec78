import { builder } from './builder.js';
import { CHANGE_REQUEST_STATUSES, INVOICE_STATUSES, ORDER_STATUSES, REFERRAL_EARNING_STATUSES, WEBHOOK_DELIVERY_STATUSES } from '../db/status-values.js';

/**
 * The account API's statuses as GraphQL enums. The values are the documented spellings that REST and
 * MCP answer with, so an enum here changes nothing on those doors; OpenAPI and MCP's output schemas
 * list the same values.
 */
export const OrderStatusEnum = builder.enumType('OrderStatus', {
  description:
    "The order's subscription: active; trialing; past_due (a renewal failed, retried); unpaid (retries ended); incomplete (the first payment did not complete); paused; cancelled.",
  values: ORDER_STATUSES,
});

export const InvoiceStatusEnum = builder.enumType('InvoiceStatus', {
  description: "Stripe's invoice status: draft, open (owed), paid, uncollectible, void.",
  values: INVOICE_STATUSES,
});

export const ChangeRequestStatusEnum = builder.enumType('ChangeRequestStatus', {
  description: 'open (our team answers), done or declined.',
  values: CHANGE_REQUEST_STATUSES,
});

export const ReferralEarningStatusEnum = builder.enumType('ReferralEarningStatus', {
  description: 'pending or paid.',
  values: REFERRAL_EARNING_STATUSES,
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'pending (retried with backoff for a day), delivered or failed.',
  values: WEBHOOK_DELIVERY_STATUSES,
});
