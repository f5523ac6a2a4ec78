import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestService, type TestService } from '../support/test-service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const AUTH_PATHS = [
  '/auth/sign-up',
  '/auth/sign-up/confirm',
  '/auth/sign-in',
  '/auth/sign-out',
  '/auth/sign-out-everywhere',
  '/auth/password-reset',
  '/auth/password-reset/confirm',
  '/auth/invitation',
  '/auth/accept-invitation',
];

/** A JSON value of any shape, or text that is almost JSON. */
const bodies = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.dictionary(fc.constantFrom('email', 'password', 'token', 'account_name', '__proto__', 'constructor'), fc.jsonValue()).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);

describe('fuzzing the sign-in paths and the portal (fast-check)', () => {
  it('any body, content type or method on /auth/ never answers 500 and always says what to change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...AUTH_PATHS),
        fc.constantFrom('POST', 'GET', 'PUT'),
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
        bodies,
        async (path, method, type, body) => {
          const response = await service.api(path, {
            method,
            key: null,
            headers: type ? { 'content-type': type } : {},
            ...(method === 'GET' ? {} : { body }),
          });
          expect(response.status, `${method} ${path} ${type} ${body}`).toBeLessThan(500);
          const answer = (await response.json()) as { detail?: unknown };
          // A refusal says what to change in a detail sentence.
          const refusal = expect.objectContaining({ detail: expect.any(String) });
          const anyAnswer = expect.anything();
          expect(answer).toEqual(response.status >= 400 ? refusal : anyAnswer);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('any path under /portal/ answers the app, an asset or a 404 with a detail, never a 500 nor a file outside the build', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('assets', '..', '%2e%2e', 'index.html', '.build-hash', 'etc', 'passwd', '%00', 'x.js', '..%2f'), { maxLength: 5 }),
        async (parts) => {
          const response = await service.api(`/portal/${parts.join('/')}`, { key: null });
          expect(response.status).toBeLessThan(500);
          const text = await response.text();
          expect(text).not.toContain('root:');
          // What answers 200 is the app's page or one of its assets.
          const served = response.status === 200 ? response.headers.get('content-type') : 'not served';
          expect(served).toMatch(response.status === 200 ? /text\/html|javascript|css/ : /^not served$/);
        },
      ),
      { numRuns: 150 },
    );
  });
});
