import { randomInt } from 'node:crypto';

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const ALL = LOWER + UPPER + DIGITS;

/**
 * A new mailbox password: 20 characters from crypto's random source, with a lower-case letter, a
 * capital and a digit (providers' rules; Google wants 8 to 100 characters), no look-alikes (l, 1, O, 0).
 */
export function generateMailboxPassword(): string {
  for (;;) {
    const password = Array.from({ length: 20 }, () => ALL[randomInt(ALL.length)]).join('');
    if ([LOWER, UPPER, DIGITS].every((set) => [...password].some((c) => set.includes(c)))) return password;
  }
}

/** The purpose a mailbox's password is sealed for (resolvers/secrets/encrypt-secret.ts): bound to its row. */
export function mailboxSealPurpose(mailboxId: number): string {
  return `mailbox:${mailboxId}`;
}
