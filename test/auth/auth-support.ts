import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type TestService } from '../support/test-service.js';

/** Every message in the service's outbox to `to`, oldest first, with quoted-printable soft breaks and =3D undone. */
export function outboxMailsTo(service: TestService, to: string): string[] {
  const dir = service.services.mailer?.outboxDir;
  if (!dir) throw new Error('the service has no outbox: start it without SMTP_URL');
  return readdirSync(dir)
    .map((f) => ({ at: statSync(join(dir, f)).mtimeMs, text: readFileSync(join(dir, f), 'utf8') }))
    .sort((a, b) => a.at - b.at)
    .map(({ text }) => text.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((m) => m.includes(`To: ${to}`));
}

/** The token of the last `path` link mailed to `to`. */
export function tokenMailedTo(service: TestService, to: string, path: string): string {
  const mails = outboxMailsTo(service, to);
  const token = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mails.at(-1) ?? '')?.[1];
  if (!token) throw new Error(`no ${path} link mailed to ${to}`);
  return token;
}

/**
 * Signs up a new account as a person does: POST /auth/sign-up (202, "check your e-mail"), then the
 * link mailed to the address, POST /auth/sign-up/confirm (201, signed in). Returns the confirmation's
 * answer, its body and the session cookie.
 */
export async function signUpNew(service: TestService, email: string, password = 'correct horse battery') {
  const asked = await service.api('/auth/sign-up', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_name: `Account of ${email}`, email, password }),
  });
  if (asked.status !== 202) return { response: asked, body: (await asked.json()) as { account_id: number; user_id: number }, cookie: '' };
  const token = tokenMailedTo(service, email.trim().toLowerCase(), '/portal/confirm-sign-up');
  const response = await service.api('/auth/sign-up/confirm', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const body = (await response.json()) as { account_id: number; user_id: number };
  return { response, body, cookie: cookieOf(response) };
}

export async function signIn(service: TestService, email: string, password: string, headers: Record<string, string> = {}) {
  const response = await service.api('/auth/sign-in', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });
  return { response, cookie: cookieOf(response) };
}

/** The `name=value` part of the answer's Set-Cookie, ready for a Cookie header. */
export function cookieOf(response: Response): string {
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** A GraphQL request signed in by cookie, with the CSRF header unless told otherwise. */
export async function sessionGraphql(service: TestService, cookie: string, query: string, variables: Record<string, unknown> = {}, csrf = true) {
  const response = await service.api('/graphql', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json', cookie, ...(csrf ? { 'x-graphql-yoga-csrf': '1' } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[]; detail?: string; code?: string } };
}
