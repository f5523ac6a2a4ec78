import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/schema.js';
import {
  consumeOAuthRecord,
  deleteOAuthRecord,
  deleteOAuthRecordsOfGrant,
  findOAuthRecord,
  findOAuthRecordByUid,
  findOAuthRecordByUserCode,
  upsertOAuthRecord,
} from '../../db/oauth-records.js';

/**
 * The models whose id is a bearer secret (the code or token itself): stored under the SHA-256 of the
 * id and without the `jti` field, so a dump of oauth_records holds no usable code or token. The id is
 * given back on every find (oidc-provider looks them up by value), so nothing is lost.
 */
const SECRET_MODELS = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'ClientCredentials', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/** The key a secret model's record is stored under; also how /mcp finds an access token (resolvers/auth/oauth-tokens.ts). */
export function hashOAuthId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * oidc-provider's storage over our database (the table oauth_records through db/oauth-records.ts):
 * one adapter per model, so clients, grants, sessions, interactions, codes and tokens survive a
 * restart and are shared by every instance, on PGlite and PostgreSQL alike.
 */
export function oauthAdapterFactory(db: Kysely<Database>, now: () => Date = () => new Date()): AdapterFactory {
  return (model: string): Adapter => {
    const secret = SECRET_MODELS.has(model);
    const keyOf = (id: string) => (secret ? hashOAuthId(id) : id);
    const read = (id: string | undefined, row: { payload: string; expires_at: Date | null; consumed_at: Date | null } | undefined) => {
      if (!row) return undefined;
      if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now().getTime()) return undefined;
      const payload: AdapterPayload = parsePayload(row.payload);
      if (secret && id !== undefined) payload.jti = id;
      if (row.consumed_at !== null) payload.consumed = Math.floor(new Date(row.consumed_at).getTime() / 1000);
      return payload;
    };
    return {
      async upsert(id, payload, expiresIn) {
        const stored: AdapterPayload = { ...payload };
        if (secret) delete stored.jti;
        await upsertOAuthRecord(db, {
          model,
          id: keyOf(id),
          payload: JSON.stringify(stored),
          // A grant is a member of itself, so revoking by grant id removes the grant with its tokens.
          grant_id: model === 'Grant' ? id : (payload.grantId ?? null),
          uid: payload.uid ?? null,
          user_code: payload.userCode ?? null,
          client_id: payload.clientId ?? null,
          user_id: personOf(payload.accountId),
          expires_at: typeof expiresIn === 'number' ? new Date(now().getTime() + expiresIn * 1000) : null,
        });
      },
      async find(id) {
        return read(id, await findOAuthRecord(db, model, keyOf(id)));
      },
      async findByUid(uid) {
        return read(undefined, await findOAuthRecordByUid(db, model, uid));
      },
      async findByUserCode(userCode) {
        return read(undefined, await findOAuthRecordByUserCode(db, model, userCode));
      },
      async consume(id) {
        await consumeOAuthRecord(db, model, keyOf(id), now());
      },
      async destroy(id) {
        await deleteOAuthRecord(db, model, keyOf(id));
      },
      async revokeByGrantId(grantId) {
        await deleteOAuthRecordsOfGrant(db, grantId);
      },
    };
  };
}

/** The person a record is for: the authorization server's account id is our user's id. */
function personOf(accountId: string | undefined): number | null {
  return accountId !== undefined && /^\d{1,15}$/.test(accountId) ? Number(accountId) : null;
}

function parsePayload(text: string): AdapterPayload {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('An oauth_records payload is not a JSON object.');
  return { ...value };
}
