import { builder } from './builder.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  updateWebhook,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../resolvers/webhooks/webhook-endpoints.js';
import { EVENT_TYPES } from '../resolvers/events/event-types.js';

const WebhookEndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint').implement({
  fields: (t) => ({
    webhookId: t.exposeInt('webhookId'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: `Event types delivered: any of ${EVENT_TYPES.join(', ')}, or "*" for all.` }),
    description: t.exposeString('description', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    secret: t.exposeString('secret', { nullable: true, description: 'The signing secret; only in the answer that creates the endpoint.' }),
  }),
});

const WebhookAttemptRef = builder.objectRef<WebhookAttempt>('WebhookAttempt').implement({
  fields: (t) => ({
    attempt: t.exposeInt('attempt'),
    at: t.expose('at', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The endpoint's HTTP status; null when it did not answer." }),
    error: t.exposeString('error', { nullable: true }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

const WebhookDeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery').implement({
  fields: (t) => ({
    deliveryId: t.exposeInt('deliveryId'),
    eventId: t.exposeString('eventId', { description: 'Also in the Webhook-Id header: drop a delivery whose event you already handled.' }),
    eventType: t.exposeString('eventType'),
    status: t.exposeString('status', { description: 'pending (retried with backoff for a day), delivered or failed.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    attempts: t.field({ type: [WebhookAttemptRef], resolve: (d) => [...d.attempts] }),
  }),
});

const DeletedWebhookRef = builder.objectRef<{ webhookId: number; deleted: true }>('DeletedWebhook').implement({
  fields: (t) => ({ webhookId: t.exposeInt('webhookId'), deleted: t.exposeBoolean('deleted') }),
});

const WebhookInput = builder.inputType('WebhookInput', {
  fields: (t) => ({
    url: t.string({ required: false, description: 'An https:// address on the public internet.' }),
    events: t.stringList({ required: false, description: `Any of ${EVENT_TYPES.join(', ')}; omitted or "*": all.` }),
    description: t.string({ required: false, description: 'At most 200 characters.' }),
  }),
});

builder.queryField('webhooks', (t) =>
  t.field({
    type: [WebhookEndpointRef],
    description: "The webhook endpoints of the caller's account.",
    authScopes: { write: true },
    resolve: (_root, _args, ctx) => listWebhooks(ctx),
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: [WebhookDeliveryRef],
    description: 'The newest 100 deliveries to one endpoint, each with its attempts.',
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => listWebhookDeliveries(args.webhookId, ctx),
  }),
);

builder.mutationField('createWebhook', (t) =>
  t.field({
    type: WebhookEndpointRef,
    description: 'Registers an endpoint; the answer carries its signing secret, shown this once.',
    authScopes: { write: true },
    args: { input: t.arg({ type: WebhookInput, required: true }) },
    resolve: (_root, args, ctx) => createWebhook(args.input, ctx),
  }),
);

builder.mutationField('updateWebhook', (t) =>
  t.field({
    type: WebhookEndpointRef,
    description: "Changes an endpoint's address, event types or description; a field not sent is kept.",
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }), input: t.arg({ type: WebhookInput, required: true }) },
    resolve: (_root, args, ctx) => updateWebhook(args.webhookId, args.input, ctx),
  }),
);

builder.mutationField('deleteWebhook', (t) =>
  t.field({
    type: DeletedWebhookRef,
    description: 'Stops deliveries to an endpoint.',
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteWebhook(args.webhookId, ctx),
  }),
);
