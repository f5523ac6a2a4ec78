import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { outboxMailsTo, signIn } from '../auth/auth-support.js';
import { PASSWORD, freshOutbox, signUpDirect } from './people-support.js';

let service: TestService;

/** The waits of a second or more armed (setTimeout) while `run` ran: the slow-down is one of them. */
async function longWaitsArmedDuring<T>(run: () => Promise<T>): Promise<{ result: T; waits: number[] }> {
  const waits: number[] = [];
  const original = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number, ...rest: unknown[]) => {
    if ((ms ?? 0) >= 950) waits.push(ms!);
    return original(handler, ms, ...rest);
  }) as typeof setTimeout);
  try {
    return { result: await run(), waits };
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  // Over real sockets, behind a trusted proxy (this test), so each request names its client address.
  service = await startTestService({ env: { TRUSTED_PROXIES: '127.0.0.1,::1', STRIPE_SECRET_KEY: '', ALERT_OUTBOX_DIR: freshOutbox() } });
});
afterAll(async () => {
  await service?.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('sign-in throttling', () => {
  it('ten wrong passwords from one address do not lock the owner out: from their own address they still get in, slowed', async () => {
    await signUpDirect(service, 'target@example.com');
    const attacker = from('203.0.113.9');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await signIn(service, 'target@example.com', `guess number ${i}`, attacker)).response.status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    // The attacker, with the right password now, is still held back at their address.
    expect((await signIn(service, 'target@example.com', PASSWORD, attacker)).response.status).toBe(429);
    const started = Date.now();
    const { result: owner, waits } = await longWaitsArmedDuring(() => signIn(service, 'target@example.com', PASSWORD, from('198.51.100.7')));
    expect(owner.response.status).toBe(200);
    expect(owner.cookie).toMatch(/^svc_session=/);
    // Past ten attempts for the address from anywhere, each answer waits a second: slowed, not refused.
    expect(waits).toContain(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a fresh address with no guesses against it answers at once', async () => {
    await signUpDirect(service, 'calm@example.com');
    // No stopwatch: the slow-down is a one-second wait the server arms, and none is armed here.
    const { result, waits } = await longWaitsArmedDuring(() => signIn(service, 'calm@example.com', PASSWORD, from('198.51.100.8')));
    expect(result.response.status).toBe(200);
    expect(waits).not.toContain(1000);
  });
});

describe('password reset links', () => {
  it("using one reset link kills the person's other outstanding links", async () => {
    await signUpDirect(service, 'forgetful@example.com');
    const ask = () =>
      service.api('/auth/password-reset', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json', ...from('198.51.100.9') },
        body: JSON.stringify({ email: 'forgetful@example.com' }),
      });
    expect((await ask()).status).toBe(202);
    expect((await ask()).status).toBe(202);
    const tokens = outboxMailsTo(service, 'forgetful@example.com').map((m) => /reset-password\?token=([A-Za-z0-9_-]+)/.exec(m)?.[1]);
    expect(tokens).toHaveLength(2);
    const confirm = (token: string | undefined, password: string) =>
      service.api('/auth/password-reset/confirm', {
        method: 'POST',
        key: null,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });
    expect((await confirm(tokens[1], 'the first new password')).status).toBe(200);
    const other = await confirm(tokens[0], 'a thief chosen password');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { code: string }).code).toBe('invalid_token');
    expect((await signIn(service, 'forgetful@example.com', 'the first new password', from('198.51.100.9'))).response.status).toBe(200);
    expect((await signIn(service, 'forgetful@example.com', 'a thief chosen password', from('198.51.100.9'))).response.status).toBe(401);
  });
});
