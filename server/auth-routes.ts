import type { Services } from '../resolvers/context.js';
import type { RequestInfo } from './serve-http.js';
import { ApiError } from '../operations/api-error.js';
import { DomainError } from '../resolvers/domain-error.js';
import { restAnswerOf } from '../rest/rest-error-words.js';
import { errorResponse, jsonResponse } from '../operations/json-response.js';
import { checkPassword, hashPassword } from '../resolvers/people/passwords.js';
import { clearedSessionCookie, revokeSession, revokeUserSessions, sessionCookie, sessionTokenOf, startSession } from '../resolvers/people/sessions.js';
import { createUser, normalizeEmail, requirePassword, signUp } from '../resolvers/people/users.js';
import { endResetLinks, issuePasswordReset, issueSignUp, useToken } from '../resolvers/people/user-tokens.js';
import { sendPeopleMail } from '../resolvers/people/people-mail.js';
import { previewInvitation } from '../resolvers/people/invitations.js';
import { parseJsonBounded } from '../operations/parse-json-bounded.js';
import { findUserIdByEmail, findUserSignIn, setUserPasswordHash } from '../db/users.js';
import { authenticateSession } from '../resolvers/people/authenticate-session.js';
import { revokeAssistantsOfPerson } from '../resolvers/oauth/connected-assistants.js';
import { referrerOfCode } from '../resolvers/referrals/referral-code.js';

/** How long a sign-in answer waits once an e-mail address has met more wrong passwords than signInSlow allows (from anywhere). */
const SLOW_DOWN_MS = 1000;

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
      const passwordHash = await hashPassword(requirePassword(body.password));
      // Optional; an unknown code is a 422 (docs/people.md): codes are shared in public, so saying
      // which exist tells nothing about anyone's e-mail address.
      const referredByAccountId = await referrerOfCode(db, body.referral_code);
      // The answer is the same whether or not the address has an account: its holder learns by e-mail.
      const taken = await findUserIdByEmail(db, email);
      if (taken) {
        await sendPeopleMail(
          services.mailer,
          email,
          'Someone tried to sign up with your address',
          `Someone asked to open a new account on ${config.apiUrl} with ${email}, which already signs in here.\n\n` +
            `To get in, sign in at ${config.apiUrl}/portal/sign-in, or choose a new password at ${config.apiUrl}/portal/reset-password.\n\n` +
            'If it was not you, nothing has changed and you can ignore this message.\n',
          info.logIds,
        );
      } else {
        const token = await issueSignUp(db, { email, accountName, passwordHash, referredByAccountId });
        await sendPeopleMail(
          services.mailer,
          email,
          `Confirm your address to open ${accountName}`,
          `Someone (we hope you) asked to open the account "${accountName}" on ${config.apiUrl} with ${email}.\n\n` +
            `Open this link within a day to confirm the address and sign in:\n${config.apiUrl}/portal/confirm-sign-up?token=${token}\n\n` +
            'If it was not you, ignore this message; no account is opened without the link.\n',
          info.logIds,
        );
      }
      return jsonResponse(202, {
        detail: `Check your e-mail: a message to ${email} says how to go on (the link in it works once, within a day).`,
        email,
      });
    },
    // The links' tokens are 256 random bits: no allowance is spent on following one.
    async '/auth/sign-up/confirm'(body) {
      const used = await useToken(db, 'sign_up', body.token);
      if (!used?.email || !used.accountName || !used.passwordHash)
        throw new ApiError(400, 'invalid_token', 'The confirmation link is unknown, used or expired; sign up again to get a new one.');
      const { accountId, userId } = await signUp(db, used.accountName, used.email, used.passwordHash, config.defaultPlans, used.referredByAccountId);
      return signedIn(userId, { account_id: accountId, user_id: userId, email: used.email, role: 'owner', account_name: used.accountName }, 201);
    },
    async '/auth/sign-in'(body, request, info) {
      await byAddress(info);
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase().slice(0, 254) : '';
      const password = typeof body.password === 'string' ? body.password.slice(0, 200) : '';
      // Per (client address, e-mail): ten wrong guesses from elsewhere do not lock the person out at their own address.
      await rateLimits.consume('signInEmail', `${info.clientAddress} ${email}`);
      // From anywhere, past the allowance, every answer for the address is slowed down instead.
      const slow = await rateLimits.consume('signInSlow', email).then(
        () => false,
        (error: unknown) => {
          if (error instanceof DomainError && error.code === 'rate_limited') return true;
          throw error;
        },
      );
      if (slow) await new Promise((resolve) => setTimeout(resolve, SLOW_DOWN_MS));
      const user = email ? await findUserSignIn(db, email) : undefined;
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
      const user = await findUserIdByEmail(db, email);
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
      const passwordHash = await hashPassword(requirePassword(body.password));
      await db.transaction().execute(async (trx) => {
        const used = await useToken(trx, 'password_reset', body.token);
        if (!used?.userId)
          throw new ApiError(
            400,
            'invalid_token',
            'The reset link is unknown, used or expired; ask for a new one with "Forgot your password?" on the sign-in page.',
          );
        await setUserPasswordHash(trx, used.userId, passwordHash);
        // One link used: the person's other reset links die with it, and every session ends, a thief's
        // included, with every assistant connected in the person's name (a thief could have connected one).
        await endResetLinks(trx, used.userId);
        await revokeUserSessions(trx, used.userId);
        await revokeAssistantsOfPerson(trx, used.userId);
      });
      return jsonResponse(200, {
        detail: 'The password is changed, every session signed out and every connected assistant disconnected; sign in with the new password.',
      });
    },
    async '/auth/sign-out-everywhere'(_body, request) {
      const token = sessionTokenOf(request.headers.get('cookie'));
      const caller = token ? await authenticateSession(db, token) : null;
      if (!caller || caller.userId === null)
        throw new ApiError(401, 'not_signed_in', 'Sign in first (POST /auth/sign-in): signing out everywhere ends the sessions of the person signed in.');
      const userId = caller.userId;
      // Every session of the person (this one too) and every assistant connected in their name.
      await db.transaction().execute(async (trx) => {
        await revokeUserSessions(trx, userId);
        await revokeAssistantsOfPerson(trx, userId);
      });
      return jsonResponse(200, { signed_out: true, everywhere: true }, { 'set-cookie': clearedSessionCookie(config.apiUrl) });
    },
    async '/auth/invitation'(body) {
      const invitation = await previewInvitation(db, body.token);
      if (!invitation)
        throw new ApiError(400, 'invalid_token', 'The invitation link is unknown, used, cancelled or expired; ask the account owner for a new one.');
      return jsonResponse(200, {
        account_name: invitation.accountName,
        invited_by: invitation.invitedBy,
        email: invitation.email,
        role: invitation.role,
        expires_at: invitation.expiresAt.toISOString(),
      });
    },
    async '/auth/accept-invitation'(body) {
      const password = requirePassword(body.password);
      const used = await useToken(db, 'invitation', body.token);
      if (!used?.accountId || !used.email || !used.role)
        throw new ApiError(400, 'invalid_token', 'The invitation link is unknown, used, cancelled or expired; ask the account owner for a new one.');
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
    } catch (thrown) {
      const error = restAnswerOf(thrown);
      if (error) return errorResponse(error, info.requestId);
      throw thrown;
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
  const parsed = parseJsonBounded(text, {
    code: 'invalid_json',
    detail: 'The body is not JSON; send a JSON object such as {"email": "...", "password": "..."}.',
  });
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ApiError(400, 'invalid_json', 'Send a JSON object as the body.');
  return Object.fromEntries(Object.entries(parsed));
}
