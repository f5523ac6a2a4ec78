/**
 * What Google Workspace, the mailbox provider of the orderable plan, asks a domain to publish
 * (support.google.com/a: "Set up MX records", "Set up SPF", "Set up DKIM").
 */

/** Google's current single MX host (since 2023), at priority 1. */
export const GOOGLE_MX = { host: 'smtp.google.com', priority: 1 } as const;

/** The five hosts Google asked for before: a domain that still has them receives mail just as well. */
export const LEGACY_GOOGLE_MX_HOSTS = [
  'aspmx.l.google.com',
  'alt1.aspmx.l.google.com',
  'alt2.aspmx.l.google.com',
  'alt3.aspmx.l.google.com',
  'alt4.aspmx.l.google.com',
] as const;

/** Older setups also listed these; they are Google's, so not another provider's. */
const OTHER_GOOGLE_MX_HOSTS = ['aspmx2.googlemail.com', 'aspmx3.googlemail.com', 'aspmx4.googlemail.com', 'aspmx5.googlemail.com'];

export function isGoogleMxHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === GOOGLE_MX.host || (LEGACY_GOOGLE_MX_HOSTS as readonly string[]).includes(h) || OTHER_GOOGLE_MX_HOSTS.includes(h);
}

/** The SPF include that authorises Google's outgoing servers. */
export const GOOGLE_SPF_INCLUDE = '_spf.google.com';

/** Google's default DKIM selector (google._domainkey.<domain>): the adapter's, in clients/mailboxes/. */
export { GOOGLE_DKIM_SELECTOR } from '../../../clients/mailboxes/provisioning-adapter.js';

/**
 * An address Google sends Workspace mail from (35.190.247.0/24, listed in _netblocks.google.com
 * under _spf.google.com): the setup's SPF is verified only when check_host passes it.
 */
export const GOOGLE_SENDING_ADDRESS = '35.190.247.13';
