import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { join } from 'node:path';
import { admin, auth, type admin_directory_v1 } from '@googleapis/admin';
import type { MailboxStatus } from './mailbox-provider.js';
import type { GoogleProvisioningConfig } from '../../config/settings.js';
import { GOOGLE_CONNECTION, GOOGLE_DKIM_SELECTOR, type DkimKeyPair, type ProvisioningAdapter } from './provisioning-adapter.js';

/** The one scope the adapter asks for: users on the Workspace account (create, read, update). */
const DIRECTORY_USER_SCOPE = 'https://www.googleapis.com/auth/admin.directory.user';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export interface GoogleAdapter extends ProvisioningAdapter {
  readonly kind: 'google';
}

const ServiceAccountKey = z.object({ client_email: z.string(), private_key: z.string() });
/** What a failed call of the client carries (GaxiosError): the HTTP status and Google's message. */
const GaxiosFailure = z.object({ status: z.number().optional(), code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() });

/** Google's error as a sentence: its message and status, never the request (which may hold a password). */
function googleReason(error: unknown): { status: number | null; text: string } {
  const e = GaxiosFailure.safeParse(error);
  const status = e.success ? (e.data.status ?? (typeof e.data.code === 'number' ? e.data.code : null)) : null;
  const message = e.success && e.data.message ? e.data.message.slice(0, 300) : 'no answer';
  return { status, text: `${message}${status === null ? '' : ` (HTTP ${status})`}` };
}

/**
 * Google Workspace through Google's official client (@googleapis/admin, Directory API), signed in as
 * a service account with domain-wide delegation acting as a Workspace admin (GOOGLE_ADMIN_SUBJECT).
 * Users are created on the customer's domain (users.insert), read for their status (users.get:
 * suspended or active; gone reads as pending), given new passwords, suspended and taken up again (users.update).
 * The domain itself must already be a domain of that Workspace account, and its DKIM key is made in
 * the Admin console, which has no API: the operator places the TXT value in GOOGLE_DKIM_DIR (docs/mailboxes.md).
 */
export function createGoogleAdapter(config: GoogleProvisioningConfig, startDelayMs: number): GoogleAdapter {
  const parsed = ServiceAccountKey.safeParse(JSON.parse(readFileSync(config.serviceAccountFile, 'utf8')));
  if (!parsed.success)
    throw new Error(`GOOGLE_SERVICE_ACCOUNT_FILE (${config.serviceAccountFile}) is not a service account key: it needs client_email and private_key.`);
  const key = parsed.data;
  const jwt = new auth.JWT({ email: key.client_email, key: key.private_key, scopes: [DIRECTORY_USER_SCOPE], subject: config.adminSubject });
  if (config.tokenUrl) {
    const tokenUrl = config.tokenUrl;
    // Tests: the token exchange goes to the local fake instead of Google's fixed token endpoint.
    jwt.transporter.interceptors.request.add({
      resolved: async (options) => (String(options.url) === GOOGLE_TOKEN_URL ? { ...options, url: new URL(tokenUrl) } : options),
    });
  }
  const directory: admin_directory_v1.Admin = admin({ version: 'directory_v1', auth: jwt, ...(config.apiBase && { rootUrl: config.apiBase }), retry: false });

  const dkimFile = (domain: string) => join(config.dkimDir ?? '', `${domain}.txt`);
  const readDkim = (domain: string): string | null => {
    if (!config.dkimDir) return null;
    try {
      const text = readFileSync(dkimFile(domain), 'utf8').replace(/["\s]/g, '');
      return /(?:^|;)p=([A-Za-z0-9+/=]+)/.exec(text)?.[1] ?? null;
    } catch {
      return null;
    }
  };
  const update = async (email: string, body: admin_directory_v1.Schema$User, what: string): Promise<{ ok: true } | { ok: false; reason: string }> => {
    try {
      await directory.users.update({ userKey: email, requestBody: body });
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: `Google refused to ${what} ${email}: ${googleReason(error).text}.` };
    }
  };

  return {
    kind: 'google',
    startDelayMs,
    connection: GOOGLE_CONNECTION,
    async provision({ domain, mailboxes }) {
      if (readDkim(domain) === null)
        return {
          ok: false,
          reason: `The DKIM key of ${domain} is made in the Google Admin console (Apps > Google Workspace > Gmail > Authenticate email > Generate new record, selector "${GOOGLE_DKIM_SELECTOR}"); the operator must place its TXT value in ${dkimFile(domain)}, then queue the domain again.`,
        };
      for (const m of mailboxes) {
        try {
          await directory.users.insert({
            requestBody: {
              primaryEmail: m.email,
              name: { givenName: m.firstName, familyName: m.lastName },
              password: m.password,
              changePasswordAtNextLogin: false,
            },
          });
        } catch (error) {
          const { status, text } = googleReason(error);
          // A retried build finds the user made by the first try: it gets the password we hold.
          if (status === 409) {
            const set = await update(m.email, { password: m.password }, 'set the password of');
            if (!set.ok) return set;
            continue;
          }
          return {
            ok: false,
            reason: `Google Workspace refused to create ${m.email}: ${text}. Check that ${domain} is a domain of the Workspace account and that licences are free, then queue the domain again.`,
          };
        }
      }
      return { ok: true, mailboxesCreated: true };
    },
    // Users exist once users.insert answered; nothing is created later.
    mailboxesCreated: async () => true,
    async makeDkimKey(domain): Promise<DkimKeyPair> {
      const publicKey = readDkim(domain);
      if (publicKey === null) throw new Error(`No DKIM value for ${domain} in ${dkimFile(domain)}.`);
      // Google holds the private key and signs; nothing of it is ours to keep.
      return { selector: GOOGLE_DKIM_SELECTOR, publicKey, privateKeyPem: '' };
    },
    dailyFigures: async () => ({ sent: 0, delivered: 0, bounced: 0, replied: 0, inbox_placed: 0, spam_placed: 0 }),
    setPassword: (email, password) => update(email, { password }, 'set the password of'),
    suspend: (email) => update(email, { suspended: true }, 'suspend'),
    reactivate: (email) => update(email, { suspended: false }, 'reactivate'),
    async mailboxStatuses(_domain, emails) {
      const statuses = new Map<string, MailboxStatus>();
      for (const email of emails) {
        try {
          const user = await directory.users.get({ userKey: email, projection: 'basic' });
          statuses.set(email, user.data.suspended ? 'suspended' : 'active');
        } catch (error) {
          // Deleted at Google: no longer a mailbox there. Anything else (an outage): no word, status kept.
          if (googleReason(error).status === 404) statuses.set(email, 'pending');
        }
      }
      return statuses;
    },
  };
}
