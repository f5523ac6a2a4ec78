import type { Context } from '../context.js';
import { DomainError } from '../domain-error.js';
import { SCOPES, type Scope } from '../auth/scopes.js';
import type { Role } from './users.js';
import { signedInPerson, type SignedInPerson } from './signed-in-person.js';

/**
 * The permission matrix of docs/people.md, the one place it is written: what each role of a signed-in
 * person may do. The three key scopes are rows too: a session holds its role's scopes (so scope-auth
 * refuses a member's placeOrder as it refuses a key without orders:place), and a person can give a
 * key only scopes their role holds. Every resolver that needs a role asks `requirePermission`.
 */
export const PERMISSION_MATRIX = {
  read: { owner: true, member: true, doing: 'read the account' },
  write: { owner: true, member: true, doing: "change the account's domains, settings and webhooks" },
  'orders:place': { owner: true, member: false, doing: 'place orders or save a card (spend money)' },
  createKeys: { owner: true, member: true, doing: 'make API keys (with the scopes your role holds)' },
  revokeOwnKeys: { owner: true, member: true, doing: 'revoke the keys you made' },
  revokeAnyKey: { owner: true, member: false, doing: 'revoke keys other people made' },
  invitePeople: { owner: true, member: false, doing: 'invite people, or cancel and re-send invitations' },
  removePeople: { owner: true, member: false, doing: 'remove people' },
  changeRoles: { owner: true, member: false, doing: "change people's roles" },
  changeOwnPassword: { owner: true, member: true, doing: 'change your own password' },
} as const satisfies Record<string, Record<Role, boolean> & { doing: string }>;

export type Permission = keyof typeof PERMISSION_MATRIX;

export function roleMay(role: Role, permission: Permission): boolean {
  return PERMISSION_MATRIX[permission][role];
}

/** The key scopes a role holds: its session's scopes, and the most a key it makes may hold. */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPES.filter((scope) => roleMay(role, scope));
}

/** The 403 for a signed-in person whose role lacks a permission, naming the role and who can. */
export function roleRefusal(role: Role, permission: Permission): DomainError {
  const owners = PERMISSION_MATRIX[permission].owner;
  return new DomainError(
    owners ? 'owner_only' : 'role_forbidden',
    `As a ${role} of this account you cannot ${PERMISSION_MATRIX[permission].doing}; ask an owner of your account${owners ? ' to do it or to make you an owner' : ''}.`,
    { role, permission },
  );
}

/** The signed-in person, whose role must hold `permission` (403 otherwise). */
export async function requirePermission(ctx: Context, permission: Permission): Promise<SignedInPerson> {
  const me = await signedInPerson(ctx);
  if (!roleMay(me.role, permission)) throw roleRefusal(me.role, permission);
  return me;
}
