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
 * What the resolvers ask of the provider (the provisioning adapter, ./provisioning-adapter.ts, implements
 * it; the rules that call it are in resolvers/mailboxes/ and jobs/).
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
