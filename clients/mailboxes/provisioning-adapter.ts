import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { MailConnection, MailboxProvider, MailboxStatus } from './mailbox-provider.js';

const generateKeyPairAsync = promisify(generateKeyPair);

/**
 * Where domains are actually built (mail hosting, DNS, mailboxes). Only the sandbox exists so far,
 * like the sandbox card processor: it builds nothing outside this service. Whatever the adapter,
 * DNS is never skipped: a domain goes live only when our checks verify its records (the build's
 * states, resolvers/domains/setup/settle-build-state.ts) and the adapter says its mailboxes exist.
 */
export interface ProvisioningAdapter extends MailboxProvider {
  readonly kind: 'sandbox' | 'google';
  /** How long after a placement the build starts (the sandbox waits SANDBOX_BUILD_DELAY_MS). */
  readonly startDelayMs: number;
  /**
   * Builds the domain at the provider; a refusal is a sentence the customer can act on.
   * `mailboxesCreated`: the provider's word that the mailboxes exist (live waits for it).
   */
  provision(domain: {
    readonly domain: string;
    readonly forwardTo: string | null;
    /** The domain's mailboxes with the passwords the build generated (sealed in our database first, so a retry sends the same). */
    readonly mailboxes: readonly ProvisionedMailbox[];
  }): Promise<{ ok: true; mailboxesCreated: boolean } | { ok: false; reason: string }>;
  /** Suspends a mailbox at the provider (its order was cancelled); a refusal is a sentence the operator can act on. */
  suspend(email: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Takes a suspended mailbox up again (its order was reinstated); a refusal is a sentence the operator can act on. */
  reactivate(email: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Asked again while a built domain waits: have the mailboxes been created since? */
  mailboxesCreated(domain: string): Promise<boolean>;
  /** The domain's DKIM key pair: 2048-bit RSA, the size Google Workspace generates. */
  makeDkimKey(domain: string): Promise<DkimKeyPair>;
  /** One day of sending figures for a watched domain; the sandbox sends nothing, so they are zeros. */
  dailyFigures(
    domain: string,
    day: string,
  ): Promise<{ sent: number; delivered: number; bounced: number; replied: number; inbox_placed: number; spam_placed: number }>;
}

/** A key pair as the provisioning adapter hands it over: the private key as PKCS#8 PEM. */
export interface DkimKeyPair {
  readonly selector: string;
  /** Base64 DER SubjectPublicKeyInfo, the DKIM record's p=. */
  readonly publicKey: string;
  readonly privateKeyPem: string;
}

export interface ProvisionedMailbox {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly password: string;
}

/** A sandbox adapter, with its state open to tests: what it made, and the addresses it reports suspended. */
export interface SandboxAdapter extends ProvisioningAdapter {
  readonly kind: 'sandbox';
  /** Addresses the sandbox has made, with their passwords (in memory: gone at a restart). */
  readonly made: Map<string, { password: string }>;
  /** Addresses it reports suspended once made (SANDBOX_SUSPENDED_MAILBOXES seeds it; a test may add or remove). */
  readonly suspended: Set<string>;
}

/** Google's default DKIM selector: the key is published at google._domainkey.<domain>. */
export const GOOGLE_DKIM_SELECTOR = 'google';

/** IMAP and SMTP of Google Workspace, which the sandbox stands in for. */
export const GOOGLE_CONNECTION: MailConnection = { imapHost: 'imap.gmail.com', imapPort: 993, smtpHost: 'smtp.gmail.com', smtpPort: 587 };

/** A real 2048-bit RSA pair: the public key as the base64 DER a DKIM record's p= holds, the private key as PKCS#8 PEM. */
export async function makeRsaDkimKey(selector: string): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector, publicKey: Buffer.from(publicKey).toString('base64'), privateKeyPem: String(privateKey) };
}

/**
 * The sandbox provider: it "creates" the mailboxes as it builds (remembering them in memory) and
 * reports them active, except the addresses in `suspended`. It cannot know mailboxes made before
 * this process started (it answers nothing for them, so their recorded status stands).
 */
export function createSandboxAdapter(startDelayMs: number, suspended: readonly string[] = []): SandboxAdapter {
  const made = new Map<string, { password: string }>();
  const suspendedSet = new Set(suspended.map((a) => a.toLowerCase()));
  return {
    kind: 'sandbox' as const,
    startDelayMs,
    connection: GOOGLE_CONNECTION,
    made,
    suspended: suspendedSet,
    // The DNS is the customer's to publish; the mailboxes exist as soon as the build asks.
    provision: async ({ mailboxes }) => {
      for (const m of mailboxes) made.set(m.email.toLowerCase(), { password: m.password });
      return { ok: true, mailboxesCreated: true };
    },
    mailboxesCreated: async () => true,
    // Reported suspended from now on (mailboxStatuses), as the provider would.
    suspend: async (email) => {
      suspendedSet.add(email.toLowerCase());
      return { ok: true };
    },
    // Reported active again from now on, as the provider would.
    reactivate: async (email) => {
      suspendedSet.delete(email.toLowerCase());
      return { ok: true };
    },
    setPassword: async (email, password) => {
      made.set(email.toLowerCase(), { password });
      return { ok: true };
    },
    mailboxStatuses: async (_domain, emails) => {
      const statuses = new Map<string, MailboxStatus>();
      for (const email of emails) {
        const key = email.toLowerCase();
        if (made.has(key)) statuses.set(email, suspendedSet.has(key) ? 'suspended' : 'active');
      }
      return statuses;
    },
    makeDkimKey: () => makeRsaDkimKey(GOOGLE_DKIM_SELECTOR),
    dailyFigures: async () => ({ sent: 0, delivered: 0, bounced: 0, replied: 0, inbox_placed: 0, spam_placed: 0 }),
  };
}
