import type { Context } from '../context.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { deleteOAuthRecordsOfGrant, deleteOAuthRecordsOfUser, findOAuthGrantOfUser, listOAuthGrantsOfUser } from '../../db/oauth-records.js';
import { DomainError } from '../domain-error.js';
import { signedInPerson } from '../people/signed-in-person.js';
import { isScope, type Scope } from '../auth/scopes.js';

/** An assistant a person connected through the MCP sign-in (one OAuth grant). */
export interface ConnectedAssistant {
  readonly connectionId: string;
  /** The name the assistant registered with (client_name), or its client id when it gave none. */
  readonly clientName: string;
  readonly clientId: string;
  readonly scopes: readonly Scope[];
  readonly connectedAt: Date;
  /** Kept to the minute; null until its first call on /mcp. */
  readonly lastUsedAt: Date | null;
}

/** The assistants the signed-in person connected, newest first. */
export async function listConnectedAssistants(ctx: Context): Promise<ConnectedAssistant[]> {
  const me = await signedInPerson(ctx);
  const rows = await listOAuthGrantsOfUser(ctx.services.db, me.userId);
  const now = ctx.now().getTime();
  return rows
    .filter((row) => row.expires_at === null || new Date(row.expires_at).getTime() > now)
    .map((row) => {
      const grant = objectOf(row.payload);
      const client = row.client_payload === null ? {} : objectOf(row.client_payload);
      const clientId = stringOf(grant.clientId) ?? '';
      // A grant lists the scopes given per resource, and the ones the person left unticked as rejected.
      const rejected = new Set(resourceScopes(grant.rejected));
      const scopes = [...new Set(resourceScopes(grant))].filter(isScope).filter((scope) => !rejected.has(scope));
      return {
        connectionId: row.id,
        clientName: stringOf(client.client_name) ?? clientId,
        clientId,
        scopes,
        connectedAt: new Date(row.created_at),
        lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
      };
    });
}

/**
 * Disconnects one of the signed-in person's assistants: its grant, and with it every access and
 * refresh token it holds, are deleted, so its next call on /mcp is a 401 and it must ask again.
 */
export async function revokeConnectedAssistant(ctx: Context, connectionId: string): Promise<{ connectionId: string; revoked: boolean }> {
  const me = await signedInPerson(ctx);
  const grant = await findOAuthGrantOfUser(ctx.services.db, me.userId, connectionId);
  if (!grant) {
    throw new DomainError(
      'connection_not_found',
      `You have no connected assistant ${connectionId}; list them with connectedAssistants (the portal's settings) and use a connectionId from there.`,
    );
  }
  await deleteOAuthRecordsOfGrant(ctx.services.db, connectionId);
  return { connectionId, revoked: true };
}

/**
 * Disconnects every assistant of a person at once (a password reset, a password change, signing out
 * everywhere): their grants with every access and refresh token go, so the next call on /mcp is a 401
 * and a refresh is invalid_grant. Whoever held the password could have connected one of them.
 */
export async function revokeAssistantsOfPerson(db: Kysely<Database>, userId: number): Promise<void> {
  await deleteOAuthRecordsOfUser(db, userId);
}

function objectOf(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
}

/** Every scope of a grant's (or its rejected part's) `resources`: { "<resource>": "read write" }. */
function resourceScopes(value: unknown): string[] {
  const resources: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, 'resources') : undefined;
  if (typeof resources !== 'object' || resources === null) return [];
  return Object.values(resources).flatMap((scope) => (typeof scope === 'string' ? scope.split(' ') : []));
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
