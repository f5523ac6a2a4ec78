import { builder } from './builder.js';
import { WebhookDeliveryStatusEnum } from './status-enums.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhookDeliveriesPage,
  listWebhooks,
  updateWebhook,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../resolvers/webhooks/webhook-endpoints.js';
import { EVENT_TYPES } from '../resolvers/events/event-types.js';
import { resendWebhookDelivery, sendTestWebhook, type QueuedDelivery } from '../resolvers/webhooks/try-webhooks.js';
import { listEvents, listEventsPage, type EventPage } from '../resolvers/events/list-events.js';
import type { EventBody } from '../resolvers/events/record-event.js';
import type { WireField } from './wire-field-extension.js';
import { CONNECTION_ARGS_TEXT, PAGE_ON_THE_WIRE, connectionOf } from './connection.js';

const WebhookEndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint').implement({
  fields: (t) => ({
    webhookId: t.exposeInt('webhookId'),
    url: t.exposeString('url'),
    events: t.exposeStringList('events', { description: `Event types delivered: any of ${EVENT_TYPES.join(', ')}, or "*" for all.` }),
    description: t.exposeString('description', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    // Selected on REST and MCP by create_webhook alone (its row's alsoSelects): every other answer would say null.
    secret: t.exposeString('secret', {
      nullable: true,
      description: 'The signing secret; only in the answer that creates the endpoint.',
      extensions: { wireOmit: true } satisfies WireField,
    }),
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
    status: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.status }),
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
    deprecationReason: 'Stops at 100: use webhookDeliveriesConnection(webhookId, first, after), which pages through all of them.',
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => listWebhookDeliveries(args.webhookId, ctx),
  }),
);

const WebhookDeliveryConnectionRef = connectionOf(
  'WebhookDelivery',
  WebhookDeliveryRef,
  'A page of the deliveries to one endpoint, newest first.',
  'webhook_deliveries',
);

builder.queryField('webhookDeliveriesConnection', (t) =>
  t.field({
    type: WebhookDeliveryConnectionRef,
    extensions: PAGE_ON_THE_WIRE,
    description: `The deliveries to one endpoint, newest first, each with its attempts, a page at a time: ${CONNECTION_ARGS_TEXT} (a deliveryId).`,
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }), first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listWebhookDeliveriesPage(args.webhookId, args, ctx),
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

const QueuedDeliveryRef = builder.objectRef<QueuedDelivery>('QueuedDelivery').implement({
  fields: (t) => ({
    deliveryId: t.exposeInt('deliveryId'),
    eventId: t.exposeString('eventId'),
    status: t.field({
      type: WebhookDeliveryStatusEnum,
      description: 'pending: the attempt is queued; GET /v1/webhooks/{id}/deliveries shows how it went.',
      resolve: (d) => d.status,
    }),
  }),
});

const EventRef = builder.objectRef<EventBody>('Event').implement({
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Also the Webhook-Id header of its deliveries.' }),
    type: t.exposeString('type'),
    created: t.field({ type: 'DateTime', resolve: (e) => new Date(e.created) }),
    dataJson: t.string({
      description: 'The event\'s data, serialized as text (REST and MCP answer it as the object "data").',
      resolve: (e) => JSON.stringify(e.data),
    }),
  }),
});

const EventPageRef = builder.objectRef<EventPage>('EventPage').implement({
  fields: (t) => ({
    data: t.field({ type: [EventRef], resolve: (p) => [...p.data] }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More events after this page: ask again with starting_after the last id.' }),
  }),
});

builder.queryField('events', (t) =>
  t.field({
    type: EventPageRef,
    description: "The account's events of the last 30 days, newest first: limit (1-100, default 10) and startingAfter (the last id of the previous page).",
    authScopes: { write: true },
    args: { limit: t.arg.int({ required: false }), startingAfter: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listEvents(args, ctx),
  }),
);

const EventConnectionRef = connectionOf('Event', EventRef, "A page of the account's events, newest first.", 'data');

builder.queryField('eventsConnection', (t) =>
  t.field({
    type: EventConnectionRef,
    description: `The account's events of the last 30 days, newest first (ties by id), a page at a time: ${CONNECTION_ARGS_TEXT} (an event id).`,
    authScopes: { write: true },
    args: { first: t.arg.int({ required: false }), after: t.arg.string({ required: false }) },
    resolve: (_root, args, ctx) => listEventsPage(args, ctx),
  }),
);

builder.mutationField('sendTestWebhook', (t) =>
  t.field({
    type: QueuedDeliveryRef,
    description: 'Sends a webhook.test event to one endpoint, signed like any other.',
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => sendTestWebhook(args.webhookId, ctx),
  }),
);

builder.mutationField('resendWebhookDelivery', (t) =>
  t.field({
    type: QueuedDeliveryRef,
    description: 'One more attempt at a delivered or failed delivery (same event id).',
    authScopes: { write: true },
    args: { webhookId: t.arg.int({ required: true }), deliveryId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => resendWebhookDelivery(args.webhookId, args.deliveryId, ctx),
  }),
);
