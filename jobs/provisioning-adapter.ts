import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { DkimKeyPair } from '../resolvers/domains/setup/dkim-keys.js';
import { GOOGLE_DKIM_SELECTOR } from '../resolvers/domains/setup/google-workspace.js';

const generateKeyPairAsync = promisify(generateKeyPair);

/**
 * Where domains are actually built (mail hosting, DNS, mailboxes). Only the sandbox exists so far,
 * like the sandbox card processor: it builds nothing outside this service. Whatever the adapter,
 * DNS is never skipped: a domain goes live only when our checks verify its records (the build's
 * states, resolvers/domains/setup/settle-build-state.ts) and the adapter says its mailboxes exist.
 */
export interface ProvisioningAdapter {
  readonly kind: 'sandbox';
  /** How long after a placement the build starts (the sandbox waits SANDBOX_BUILD_DELAY_MS). */
  readonly startDelayMs: number;
  /**
   * Builds the domain at the provider; a refusal is a sentence the customer can act on.
   * `mailboxesCreated`: the provider's word that the mailboxes exist (live waits for it).
   */
  provision(domain: {
    readonly domain: string;
    readonly forwardTo: string | null;
  }): Promise<{ ok: true; mailboxesCreated: boolean } | { ok: false; reason: string }>;
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

/** A real 2048-bit RSA pair: the public key as the base64 DER a DKIM record's p= holds, the private key as PKCS#8 PEM. */
export async function makeRsaDkimKey(selector: string): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector, publicKey: Buffer.from(publicKey).toString('base64'), privateKeyPem: String(privateKey) };
}

export function createSandboxAdapter(startDelayMs: number): ProvisioningAdapter {
  return {
    kind: 'sandbox',
    startDelayMs,
    // The sandbox "creates" the mailboxes as it builds; the DNS is the customer's to publish.
    provision: async () => ({ ok: true, mailboxesCreated: true }),
    mailboxesCreated: async () => true,
    makeDkimKey: () => makeRsaDkimKey(GOOGLE_DKIM_SELECTOR),
    dailyFigures: async () => ({ sent: 0, delivered: 0, bounced: 0, replied: 0, inbox_placed: 0, spam_placed: 0 }),
  };
}
