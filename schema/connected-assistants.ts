import { builder } from './builder.js';
import { listConnectedAssistants, revokeConnectedAssistant, type ConnectedAssistant } from '../resolvers/oauth/connected-assistants.js';

// Assistants a person connected through the MCP sign-in (OAuth, docs/mcp.md): listed and disconnected
// by the signed-in person only (the `session` scope), as keys are.

const ConnectedAssistantRef = builder.objectRef<ConnectedAssistant>('ConnectedAssistant').implement({
  description: 'An assistant you allowed to use the account through its MCP endpoint (an OAuth grant).',
  fields: (t) => ({
    connectionId: t.exposeString('connectionId', { description: 'Names it for revokeConnectedAssistant.' }),
    clientName: t.exposeString('clientName', { description: 'The name the assistant gave when it registered (its client id when it gave none).' }),
    clientId: t.exposeString('clientId'),
    scopes: t.exposeStringList('scopes', { description: 'The scopes you gave it (within your role).' }),
    connectedAt: t.expose('connectedAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Its last call on /mcp, kept to the minute; null: not used yet.' }),
  }),
});

const RevokedAssistantRef = builder.objectRef<{ connectionId: string; revoked: boolean }>('RevokedConnectedAssistant').implement({
  fields: (t) => ({
    connectionId: t.exposeString('connectionId'),
    revoked: t.exposeBoolean('revoked'),
  }),
});

builder.queryField('connectedAssistants', (t) =>
  t.field({
    type: [ConnectedAssistantRef],
    description: 'The assistants you connected through the MCP sign-in, newest first. Signed-in people only.',
    authScopes: { session: true },
    resolve: (_root, _args, ctx) => listConnectedAssistants(ctx),
  }),
);

builder.mutationField('revokeConnectedAssistant', (t) =>
  t.field({
    type: RevokedAssistantRef,
    description:
      'Disconnects one of your assistants: its access and refresh tokens stop working at once (its next call on /mcp is a 401). Signed-in people only.',
    authScopes: { session: true },
    args: { connectionId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => revokeConnectedAssistant(ctx, args.connectionId),
  }),
);
