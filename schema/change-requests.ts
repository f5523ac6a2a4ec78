import { builder } from './builder.js';
import { ChangeRequestRef, RequestKindEnum } from './requests.js';
import { raiseRequest, type RaisedRequest } from '../resolvers/changes/raise-request.js';
import { REQUEST_KINDS } from '../resolvers/changes/request-kinds.js';

const RaiseRequestInput = builder.inputType('RaiseRequestInput', {
  fields: (t) => ({
    subscriptionId: t.string({ required: true }),
    kind: t.field({ type: RequestKindEnum, required: true, description: `One of ${Object.keys(REQUEST_KINDS).join(', ')}.` }),
    summary: t.string({
      required: true,
      description: 'What to change, at most 2,000 characters.',
      extensions: { jsonSchema: { minLength: 1, maxLength: 2000 } },
    }),
    forwardTo: t.string({ required: false, description: 'Kind forwarding only: the domain every domain of the order forwards to.' }),
  }),
});

const RaisedRequestRef = builder.objectRef<RaisedRequest>('RaisedRequest').implement({
  fields: (t) => ({
    request: t.field({ type: ChangeRequestRef, resolve: (r) => r }),
    domainsRepointed: t.exposeInt('domainsRepointed'),
  }),
});

builder.mutationField('raiseRequest', (t) =>
  t.field({
    type: RaisedRequestRef,
    description: 'Raises a change request; kind forwarding repoints every domain of the order at once.',
    authScopes: { write: true },
    args: { input: t.arg({ type: RaiseRequestInput, required: true }) },
    resolve: (_root, args, ctx) => raiseRequest(args.input, ctx),
  }),
);
