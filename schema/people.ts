import { builder } from './builder.js';
import { SECRET_INPUT } from './secret-input-extension.js';
import {
  createKeyForPerson,
  findViewer,
  listApiKeys,
  MAX_ROLL_GRACE_HOURS,
  revokeKeyForPerson,
  rollKeyForPerson,
  type ApiKeyListing,
  type NewKey,
  type RolledKey,
  type Viewer,
} from '../resolvers/people/manage-keys.js';
import { SCOPES } from '../resolvers/auth/scopes.js';
import { listInvitations, listPeople, type PendingInvitation, type PersonListing } from '../resolvers/people/list-people.js';
import { changePassword } from '../resolvers/people/change-password.js';
import { changeRole, removePerson, type RemovedPerson } from '../resolvers/people/manage-people.js';
import { cancelInvitation, inviteUser, resendInvitation } from '../resolvers/people/invitations.js';

// Key and user management: a signed-in person only (the `session` scope); an API key gets a 403.
// Who may do what is the matrix in resolvers/people/permissions.ts (docs/people.md).

const ApiKeyRef = builder.objectRef<ApiKeyListing>('ApiKey').implement({
  fields: (t) => ({
    keyId: t.exposeInt('keyId'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: "The key's first characters, to tell keys apart; the key itself is never shown again." }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Kept to the minute.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: "The e-mail of the person who made it; null for the operator's keys." }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the key stops working (chosen when it was made, or set by a roll); null: never.',
    }),
    rolledToKeyId: t.exposeInt('rolledToKeyId', { nullable: true, description: 'The key a roll made to replace this one.' }),
  }),
});

const NewApiKeyRef = builder.objectRef<NewKey>('NewApiKey').implement({
  fields: (t) => ({
    keyId: t.exposeInt('keyId'),
    key: t.exposeString('key', { description: 'The whole key, shown this once.' }),
    scopes: t.exposeStringList('scopes'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'null: the key does not expire.' }),
  }),
});

const RolledApiKeyRef = builder.objectRef<RolledKey>('RolledApiKey').implement({
  description: 'The new key a roll made (shown this once), and when the key it replaces stops working.',
  fields: (t) => ({
    keyId: t.exposeInt('keyId'),
    key: t.exposeString('key', { description: 'The whole new key, shown this once.' }),
    scopes: t.exposeStringList('scopes'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'The new key does not expire: null.' }),
    previousKeyId: t.exposeInt('previousKeyId'),
    previousKeyExpiresAt: t.expose('previousKeyExpiresAt', {
      type: 'DateTime',
      description: 'The old key works until then (the grace period), then is refused as an expired key.',
    }),
  }),
});

const RevokedApiKeyRef = builder.objectRef<{ keyId: number; revoked: boolean }>('RevokedApiKey').implement({
  fields: (t) => ({ keyId: t.exposeInt('keyId'), revoked: t.exposeBoolean('revoked') }),
});

const RoleEnum = builder.enumType('UserRole', { values: ['owner', 'member'] as const });

const InvitationRef = builder.objectRef<PendingInvitation & { expiresInDays?: number }>('Invitation').implement({
  description: 'An invitation sent and not yet accepted.',
  fields: (t) => ({
    email: t.exposeString('email'),
    role: t.exposeString('role'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'After this the link no longer works; invite again.' }),
    expiresInDays: t.int({ description: 'Days the link works from when it was sent (7).', resolve: (invitation) => invitation.expiresInDays ?? 7 }),
    invitedBy: t.exposeString('invitedBy', { nullable: true, description: 'The e-mail of the owner who sent it; null once they are removed.' }),
  }),
});

const PersonRef = builder.objectRef<PersonListing>('Person').implement({
  description: 'Someone who signs in to the account.',
  fields: (t) => ({
    userId: t.exposeInt('userId'),
    email: t.exposeString('email'),
    role: t.field({ type: RoleEnum, resolve: (person) => person.role }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const RemovedPersonRef = builder.objectRef<RemovedPerson>('RemovedPerson').implement({
  fields: (t) => ({
    userId: t.exposeInt('userId'),
    email: t.exposeString('email'),
    removed: t.exposeBoolean('removed'),
    sessionsEnded: t.exposeInt('sessionsEnded', { description: "How many of the person's sessions were signed out." }),
    keysRevoked: t.exposeInt('keysRevoked', { description: 'How many keys the person made were revoked with them.' }),
  }),
});

const CancelledInvitationRef = builder.objectRef<{ email: string; cancelled: boolean }>('CancelledInvitation').implement({
  fields: (t) => ({ email: t.exposeString('email'), cancelled: t.exposeBoolean('cancelled') }),
});

const PasswordChangeRef = builder.objectRef<{ changed: boolean; otherSessionsEnded: number }>('PasswordChange').implement({
  fields: (t) => ({
    changed: t.exposeBoolean('changed'),
    otherSessionsEnded: t.exposeInt('otherSessionsEnded', { description: 'How many of your other sessions were signed out; this one stays.' }),
  }),
});

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  fields: (t) => ({
    currentPassword: t.string({ required: true, description: 'The password you sign in with now.', extensions: SECRET_INPUT }),
    newPassword: t.string({ required: true, description: 'At least 10 characters.', extensions: SECRET_INPUT }),
  }),
});

const ApiKeyInput = builder.inputType('ApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'Where the key is used, 1 to 100 characters.' }),
    scopes: t.stringList({ required: true, description: `One or more of ${SCOPES.join(', ')}.` }),
    expiresAt: t.field({
      type: 'DateTime',
      required: false,
      description: 'When the key stops working: after now, at most 3 years ahead. Leave it out for a key that does not expire.',
    }),
  }),
});

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

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    description: 'The signed-in person and their account. Signed-in people only (an API key gets a 403).',
    authScopes: { session: true },
    resolve: (_root, _args, ctx) => findViewer(ctx),
  }),
);

builder.queryField('apiKeys', (t) =>
  t.field({
    type: [ApiKeyRef],
    description: "The account's API keys, revoked ones included. Signed-in people only.",
    authScopes: { session: true },
    resolve: (_root, _args, ctx) => listApiKeys(ctx),
  }),
);

builder.mutationField('createApiKey', (t) =>
  t.field({
    type: NewApiKeyRef,
    description: 'Makes a key; the answer carries it whole, this once (sk_test_ in sandbox mode, sk_live_ with Stripe). Signed-in people only.',
    authScopes: { session: true },
    args: { input: t.arg({ type: ApiKeyInput, required: true }) },
    resolve: (_root, args, ctx) => createKeyForPerson(ctx, args.input),
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    type: RevokedApiKeyRef,
    description: 'Revokes a key; its next request is a 401. Signed-in people only.',
    authScopes: { session: true },
    args: { keyId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => revokeKeyForPerson(ctx, args.keyId),
  }),
);

builder.mutationField('rollApiKey', (t) =>
  t.field({
    type: RolledApiKeyRef,
    description: `Makes a new key with the same name and scopes (its secret shown this once) and keeps the old one working for graceHours (0 to ${MAX_ROLL_GRACE_HOURS}, default 24), then refuses it. Who may revoke a key may roll it. Signed-in people only.`,
    authScopes: { session: true },
    args: {
      keyId: t.arg.int({ required: true }),
      graceHours: t.arg.int({ required: false, defaultValue: 24, description: `0 (the old key stops now) to ${MAX_ROLL_GRACE_HOURS}.` }),
    },
    resolve: (_root, args, ctx) => rollKeyForPerson(ctx, args.keyId, args.graceHours ?? 24),
  }),
);

builder.mutationField('inviteUser', (t) =>
  t.field({
    type: InvitationRef,
    description:
      'E-mails an invitation link (valid 7 days) naming the account and you; a second invitation to the same address replaces the first. Account owners only.',
    authScopes: { session: true },
    args: { email: t.arg.string({ required: true }), role: t.arg({ type: RoleEnum, required: true }) },
    resolve: (_root, args, ctx) => inviteUser(ctx, args.email, args.role),
  }),
);

builder.mutationField('resendInvitation', (t) =>
  t.field({
    type: InvitationRef,
    description: 'Sends a pending or expired invitation again: a new link valid 7 days; the old link stops working. Account owners only.',
    authScopes: { session: true },
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => resendInvitation(ctx, args.email),
  }),
);

builder.mutationField('cancelInvitation', (t) =>
  t.field({
    type: CancelledInvitationRef,
    description: "Cancels an address's pending invitation; its link stops working at once. Account owners only.",
    authScopes: { session: true },
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => cancelInvitation(ctx, args.email),
  }),
);

builder.queryField('people', (t) =>
  t.field({
    type: [PersonRef],
    description: 'The people who sign in to the account, oldest first. Signed-in people only.',
    authScopes: { session: true },
    resolve: (_root, _args, ctx) => listPeople(ctx),
  }),
);

builder.queryField('invitations', (t) =>
  t.field({
    type: [InvitationRef],
    description: 'Invitations sent and neither accepted nor expired, newest first. Signed-in people only.',
    authScopes: { session: true },
    resolve: (_root, _args, ctx) => listInvitations(ctx),
  }),
);

builder.mutationField('changePassword', (t) =>
  t.field({
    type: PasswordChangeRef,
    description: 'Sets a new password after checking the current one; signs out your other sessions and keeps this one. Signed-in people only.',
    authScopes: { session: true },
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    resolve: (_root, args, ctx) => changePassword(ctx, args.input),
  }),
);

builder.mutationField('removePerson', (t) =>
  t.field({
    type: RemovedPersonRef,
    description:
      'Removes a person from the account: their sessions end and the keys they made are revoked (the answer says how many); the last owner cannot be removed. Account owners only.',
    authScopes: { session: true },
    args: { userId: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => removePerson(ctx, args.userId),
  }),
);

builder.mutationField('changeRole', (t) =>
  t.field({
    type: PersonRef,
    description: 'Makes a person an owner or a member; the last owner cannot be made a member. Account owners only.',
    authScopes: { session: true },
    args: { userId: t.arg.int({ required: true }), role: t.arg({ type: RoleEnum, required: true }) },
    resolve: (_root, args, ctx) => changeRole(ctx, args.userId, args.role),
  }),
);
