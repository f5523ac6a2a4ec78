/**
 * The selectors scanned when the caller gives none (SPEC 2.1: 26 common selectors). DKIM keys live
 * at <selector>._domainkey.<domain> and DNS cannot list them, so we guess the names the large
 * mailbox providers and sending services publish by default.
 */
export const COMMON_DKIM_SELECTORS = [
  'google', // Google Workspace
  'selector1',
  'selector2', // Microsoft 365
  'k1',
  'k2',
  'k3', // Mailchimp / Mandrill, Klaviyo
  's1',
  's2', // SendGrid and many others
  'default',
  'dkim',
  'mail',
  'smtp', // common hosting panels and MTAs
  'mx', // Mailgun
  'mandrill',
  'mailjet',
  'everlytic',
  'amazonses',
  'cm', // sending services (cm: Campaign Monitor)
  'zoho', // Zoho Mail
  'protonmail', // Proton Mail
  'pm', // Postmark
  'mxvault', // MXroute and other cPanel hosts
  'fm1',
  'fm2',
  'fm3', // Fastmail
  'sig1', // iCloud custom domains
] as const;
