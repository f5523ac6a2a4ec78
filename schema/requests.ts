import { builder } from './builder.js';
import { listRequests, type ChangeRequestView, type RequestReplyView } from '../resolvers/account/list-requests.js';

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
    kind: t.exposeString('kind'),
    summary: t.exposeString('summary'),
    forwardTo: t.exposeString('forwardTo', { nullable: true }),
    status: t.exposeString('status', { description: 'open, done or declined.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    replies: t.field({ type: [ReplyRef], resolve: (r) => r.replies }),
  }),
});

builder.queryField('requests', (t) => t.field({
  type: [ChangeRequestRef],
  description: "Changes asked for and the service's replies.",
  authScopes: { read: true },
  resolve: (_root, _args, ctx) => listRequests(ctx),
}));
