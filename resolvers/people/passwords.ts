import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/**
 * argon2id at OWASP's recommended minimum (19 MiB, 2 passes). The package's Algorithm is an ambient
 * const enum, which this project's verbatimModuleSyntax cannot import: 2 is its Argon2id.
 */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 200;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * A hash made once per process with the same cost, verified against when the e-mail is unknown, so
 * an unknown e-mail takes as long as a wrong password and the answer's timing names no one.
 */
let dummyHash: Promise<string> | undefined;

/** Whether `password` matches `stored`; with `stored` null, spends the same time and says no. */
export async function checkPassword(stored: string | null, password: string): Promise<boolean> {
  const against = stored ?? (await (dummyHash ??= hashPassword(randomBytes(16).toString('hex'))));
  const matches = await verify(against, password).catch(() => false);
  return stored !== null && matches;
}

/** The sentence explaining why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'Send "password" as a string of at least 10 characters.';
  if (password.length < MIN_PASSWORD_LENGTH) return `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

/** A password for the operator to hand over (create-user, the demo user): 20 URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
