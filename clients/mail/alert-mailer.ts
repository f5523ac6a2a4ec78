/** An e-mail to a person: alerts, password resets, invitations. The id names its .eml file and Message-ID. */
export interface AlertMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly id: string;
}

export interface AlertMailer {
  readonly transport: 'smtp' | 'outbox';
  /** The outbox folder, for the outbox transport. */
  readonly outboxDir?: string;
  send(mail: AlertMail): Promise<void>;
  close(): void;
}
