import type { Services } from '../resolvers/context.js';
import type { RequestInfo } from './serve-http.js';
import { ApiError } from '../resolvers/api-error.js';
import { errorResponse, jsonResponse } from '../rest/json-response.js';
import { checkPassword, hashPassword } from '../resolvers/people/passwords.js';
import { clearedSessionCookie, revokeSession, revokeUserSessions, sessionCookie, sessionTokenOf, startSession } from '../resolvers/people/sessions.js';
import { createUser, normalizeEmail, requirePassword, signUp } from '../resolvers/people/users.js';
import { issuePasswordReset, useToken } from '../resolvers/people/user-tokens.js';
import { sendPeopleMail } from '../resolvers/people/people-mail.js';

/** The same words for an unknown e-mail and a wrong password: the answer names no one. */
const WRONG_CREDENTIALS = 'The e-mail address or the password is not right; check both, or use "Forgot your password?" on the sign-in page.';

/**
 * The portal's sign-in paths on the account listener (docs/people.md): sign-up, sign-in, sign-out,
 * password reset and accepting an invitation. Answers are JSON; a session is set as the svc_session
 * cookie. Returns null for any other path.
 */
export function createAuthRoutes(services: Services): (request: Request, info: RequestInfo) => Promise<Response | null> {
  const { db, rateLimits, config } = services;
  const byAddress = (info: RequestInfo) => rateLimits.consume('signInAddress', info.clientAddress);

  const routes: Record<string, (body: Record<string, unknown>, request: Request, info: RequestInfo) => Promise<Response>> = {
    async '/auth/sign-up'(body, _request, info) {
      if (services.selfSignUp === false) {
        throw new ApiError(403, 'sign_up_closed', 'Self sign-up is turned off on this service (SELF_SIGN_UP=off); ask an account owner for an invitation.');
      }
      await byAddress(info);
      const accountName = typeof body.account_name === 'string' ? body.account_name.trim() : '';
      if (accountName.length < 1 || accountName.length > 100)
        throw new ApiError(422, 'invalid_account_name', 'Send "account_name": your company or agency name, 1 to 100 characters.');
      const email = normalizeEmail(body.email);
      const password = requirePassword(body.password);
      const { accountId, userId } = await signUp(db, accountName, email, password, config.defaultPlans);
      return signedIn(userId, { account_id: accountId, user_id: userId, email, role: 'owner' }, 201);
    },
    async '/auth/sign-in'(body, request, info) {
      await byAddress(info);
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase().slice(0, 254) : '';
      const password = typeof body.password === 'string' ? body.password.slice(0, 200) : '';
      await rateLimits.consume('signInEmail', email);
      const user = email
        ? await db.selectFrom('users').select(['id', 'account_id', 'role', 'password_hash']).where('email', '=', email).executeTakeFirst()
        : undefined;
      // Hashes even for an unknown e-mail, so both answers take as long.
      const ok = await checkPassword(user?.password_hash ?? null, password);
      if (!user || !ok) throw new ApiError(401, 'wrong_credentials', WRONG_CREDENTIALS);
      // Rotation: the session the browser held before (if any) ends, so a planted cookie never
      // becomes a signed-in one.
      const previous = sessionTokenOf(request.headers.get('cookie'));
      if (previous) await revokeSession(db, previous);
      return signedIn(user.id, { account_id: user.account_id, user_id: user.id, email, role: user.role });
    },
    async '/auth/sign-out'(_body, request) {
      const token = sessionTokenOf(request.headers.get('cookie'));
      if (token) await revokeSession(db, token);
      return jsonResponse(200, { signed_out: true }, { 'set-cookie': clearedSessionCookie(config.apiUrl) });
    },
    async '/auth/password-reset'(body, _request, info) {
      await byAddress(info);
      const email = normalizeEmail(body.email);
      const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (user) {
        const token = await issuePasswordReset(db, user.id);
        await sendPeopleMail(
          services.mailer,
          email,
          'Reset your password',
          `Someone asked to reset the password for ${email}.\n\nSet a new one within an hour:\n${config.apiUrl}/portal/reset-password?token=${token}\n\n` +
            'If it was not you, ignore this message.\n',
          info.logIds,
        );
      }
      // Always 202: the answer never says whether the address has an account.
      return jsonResponse(202, { detail: `If ${email} signs in here, a reset link is on its way; it works once, within an hour.` });
    },
    async '/auth/password-reset/confirm'(body) {
      const password = requirePassword(body.password);
      const used = await useToken(db, 'password_reset', body.token);
      if (!used?.userId)
        throw new ApiError(
          400,
          'invalid_token',
          'The reset link is unknown, used or expired; ask for a new one with "Forgot your password?" on the sign-in page.',
        );
      await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password) })
        .where('id', '=', used.userId)
        .execute();
      // A new password ends every session, a thief's included.
      await revokeUserSessions(db, used.userId);
      return jsonResponse(200, { detail: 'The password is changed and every session signed out; sign in with the new password.' });
    },
    async '/auth/accept-invitation'(body) {
      const password = requirePassword(body.password);
      const used = await useToken(db, 'invitation', body.token);
      if (!used?.accountId || !used.email || !used.role)
        throw new ApiError(400, 'invalid_token', 'The invitation link is unknown, used or expired; ask the account owner for a new one.');
      const userId = await createUser(db, used.accountId, used.email, password, used.role);
      return signedIn(userId, { account_id: used.accountId, user_id: userId, email: used.email, role: used.role }, 201);
    },
  };

  /** A new session every sign-in (rotation): an old cookie never becomes a signed-in one. */
  async function signedIn(userId: number, body: Record<string, unknown>, status = 200): Promise<Response> {
    const { token, expiresAt } = await startSession(db, userId);
    return jsonResponse(status, { ...body, expires_at: expiresAt.toISOString() }, { 'set-cookie': sessionCookie(token, expiresAt, config.apiUrl) });
  }

  return async function authRoutes(request, info) {
    const path = new URL(request.url).pathname;
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (!route) return null;
    try {
      if (request.method !== 'POST') throw new ApiError(405, 'method_not_allowed', `${path} takes POST with a JSON body.`);
      refuseCrossSite(request, config.apiUrl);
      return await route(await jsonBody(request), request, info);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error, info.requestId);
      throw error;
    }
  };
}

/**
 * A page on another site can POST a form here (text/plain can carry a JSON-looking body) and so sign a
 * visitor in to the attacker's account, or out of their own. Browsers name the page's origin on such a
 * POST, and a form cannot send application/json: so another origin is refused, and a body must be
 * declared JSON.
 */
function refuseCrossSite(request: Request, apiUrl: string): void {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin && origin !== new URL(apiUrl).origin) {
    throw new ApiError(403, 'cross_site_request', `Sign-in paths answer only pages of this service; a page at ${origin.slice(0, 100)} cannot call them.`);
  }
  const length = request.headers.get('content-length');
  const hasBody = request.body !== null && length !== '0';
  if (hasBody && !(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
  }
}

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not JSON; send a JSON object such as {"email": "...", "password": "..."}.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ApiError(400, 'invalid_json', 'Send a JSON object as the body.');
  return Object.fromEntries(Object.entries(parsed));
}
