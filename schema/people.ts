import { builder } from './builder.js';
import { createKeyForPerson, findViewer, inviteUser, listApiKeys, revokeKeyForPerson, type ApiKeyListing, type Viewer } from '../resolvers/people/manage-keys.js';
import { SCOPES } from '../resolvers/auth/scopes.js';

// Key and user management: a signed-in person only (the `session` scope); an API key gets a 403.

const ApiKeyRef = builder.objectRef<ApiKeyListing>('ApiKey').implement({
  fields: (t) => ({
    keyId: t.exposeInt('keyId'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: 'The key\'s first characters, to tell keys apart; the key itself is never shown again.' }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Kept to the minute.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'The e-mail of the person who made it; null for the operator\'s keys.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const NewApiKeyRef = builder.objectRef<{ keyId: number; key: string; scopes: string[] }>('NewApiKey').implement({
  fields: (t) => ({
    keyId: t.exposeInt('keyId'),
    key: t.exposeString('key', { description: 'The whole key, shown this once.' }),
    scopes: t.exposeStringList('scopes'),
  }),
});

const RevokedApiKeyRef = builder.objectRef<{ keyId: number; revoked: boolean }>('RevokedApiKey').implement({
  fields: (t) => ({ keyId: t.exposeInt('keyId'), revoked: t.exposeBoolean('revoked') }),
});

const InvitationRef = builder.objectRef<{ email: string; role: string; expiresInDays: number }>('Invitation').implement({
  fields: (t) => ({ email: t.exposeString('email'), role: t.exposeString('role'), expiresInDays: t.exposeInt('expiresInDays') }),
});

const ApiKeyInput = builder.inputType('ApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'Where the key is used, 1 to 100 characters.' }),
    scopes: t.stringList({ required: true, description: `One or more of ${SCOPES.join(', ')}.` }),
  }),
});

const RoleEnum = builder.enumType('UserRole', { values: ['owner', 'member'] as const });

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: 'The signed-in person.',
  fields: (t) => ({
    userId: t.exposeInt('userId'),
    email: t.exposeString('email'),
    role: t.field({ type: RoleEnum, resolve: (viewer) => viewer.role }),
    accountId: t.exposeInt('accountId'),
    accountName: t.exposeString('accountName'),
  }),
});

builder.queryField('viewer', (t) => t.field({
  type: ViewerRef,
  description: 'The signed-in person and their account. Signed-in people only (an API key gets a 403).',
  authScopes: { session: true },
  resolve: (_root, _args, ctx) => findViewer(ctx),
}));

builder.queryField('apiKeys', (t) => t.field({
  type: [ApiKeyRef],
  description: 'The account\'s API keys, revoked ones included. Signed-in people only.',
  authScopes: { session: true },
  resolve: (_root, _args, ctx) => listApiKeys(ctx),
}));

builder.mutationField('createApiKey', (t) => t.field({
  type: NewApiKeyRef,
  description: 'Makes a key; the answer carries it whole, this once (sk_test_ in sandbox mode, sk_live_ with Stripe). Signed-in people only.',
  authScopes: { session: true },
  args: { input: t.arg({ type: ApiKeyInput, required: true }) },
  resolve: (_root, args, ctx) => createKeyForPerson(ctx, args.input),
}));

builder.mutationField('revokeApiKey', (t) => t.field({
  type: RevokedApiKeyRef,
  description: 'Revokes a key; its next request is a 401. Signed-in people only.',
  authScopes: { session: true },
  args: { keyId: t.arg.int({ required: true }) },
  resolve: (_root, args, ctx) => revokeKeyForPerson(ctx, args.keyId),
}));

builder.mutationField('inviteUser', (t) => t.field({
  type: InvitationRef,
  description: 'E-mails an invitation link (valid 7 days). Account owners only.',
  authScopes: { session: true },
  args: { email: t.arg.string({ required: true }), role: t.arg({ type: RoleEnum, required: true }) },
  resolve: (_root, args, ctx) => inviteUser(ctx, args.email, args.role),
}));
