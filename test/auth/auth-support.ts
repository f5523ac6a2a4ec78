import { type TestService } from '../support/test-service.js';

/** Signs up a new account through POST /auth/sign-up; returns its session cookie and ids. */
export async function signUpNew(service: TestService, email: string, password = 'correct horse battery') {
  const response = await service.api('/auth/sign-up', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account_name: `Account of ${email}`, email, password }),
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
