import { builder } from './builder.js';
import { ChangeRequestStatusEnum } from './status-enums.js';
import { listRequests, type ChangeRequestView, type RequestReplyView } from '../resolvers/account/list-requests.js';
import { REQUEST_KINDS, unknownRequestKindError } from '../resolvers/changes/request-kinds.js';
import { sameSpellings, type DoorEnum } from './door-enum-extension.js';

/** The kinds of change request; REST and MCP take them in any case and refuse others with the list. */
export const RequestKindEnum = builder.enumType('RequestKind', {
  description: `What a change request asks for: ${Object.keys(REQUEST_KINDS).join(', ')}.`,
  values: Object.fromEntries(Object.entries(REQUEST_KINDS).map(([name, meaning]) => [name, { value: name, description: meaning }])),
  extensions: { door: { wireValues: sameSpellings(Object.keys(REQUEST_KINDS)), refuseUnknown: unknownRequestKindError } satisfies DoorEnum },
});

const ReplyRef = builder.objectRef<RequestReplyView>('RequestReply').implement({
  fields: (t) => ({
    author: t.exposeString('author'),
    body: t.exposeString('body'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ChangeRequestRef = builder.objectRef<ChangeRequestView>('ChangeRequest').implement({
  fields: (t) => ({
    requestId: t.exposeInt('requestId'),
    subscriptionId: t.exposeString('subscriptionId'),
    kind: t.field({ type: RequestKindEnum, resolve: (r) => r.kind }),
    summary: t.exposeString('summary'),
    forwardTo: t.exposeString('forwardTo', { nullable: true }),
    status: t.field({ type: ChangeRequestStatusEnum, resolve: (r) => r.status }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    replies: t.field({ type: [ReplyRef], resolve: (r) => r.replies }),
  }),
});

builder.queryField('requests', (t) =>
  t.field({
    type: [ChangeRequestRef],
    description: "Changes asked for and the service's replies.",
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => listRequests(ctx),
  }),
);
