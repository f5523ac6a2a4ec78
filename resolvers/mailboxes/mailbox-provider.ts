import { randomInt } from 'node:crypto';

/** A mailbox at the provider: pending until the build creates it, active, or suspended there. */
export const MAILBOX_STATUSES = ['pending', 'active', 'suspended'] as const;
export type MailboxStatus = (typeof MAILBOX_STATUSES)[number];

export function isMailboxStatus(value: string): value is MailboxStatus {
  return (MAILBOX_STATUSES as readonly string[]).includes(value);
}

/** Where a sending tool reaches the provider's mailboxes. */
export interface MailConnection {
  readonly imapHost: string;
  readonly imapPort: number;
  readonly smtpHost: string;
  readonly smtpPort: number;
}

/**
 * What the resolvers ask of the provider (the provisioning adapter, jobs/provisioning-adapter.ts,
 * implements it; it lives here so the resolvers need not climb to jobs/).
 */
export interface MailboxProvider {
  readonly kind: string;
  readonly connection: MailConnection;
  /** Sets a mailbox's password at the provider; a refusal is a sentence the customer can act on. */
  setPassword(email: string, password: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * Each mailbox's status as the provider reports it now. An address the provider cannot speak for
   * (the sandbox after a restart, a mailbox it never made) is left out: no word, not a change.
   */
  mailboxStatuses(domain: string, emails: readonly string[]): Promise<ReadonlyMap<string, MailboxStatus>>;
}

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
