import type { SuffixRule } from '../checks/nameservers/match-host-suffix.js';

/**
 * Services that send mail for their customers, by the PTR name suffix of their outbound addresses
 * (matched on label boundaries, and only on forward-confirmed names: source-ptr-names.ts), with the
 * SPF include a customer publishes to authorize them. A failing source on a service whose include
 * the domain's SPF carries is one of the customer's own senders, misconfigured: the ramp stops.
 */
export interface SendingService extends SuffixRule {
  /** The SPF include (or includes) that authorize the service. */
  readonly spfIncludes: readonly string[];
}

export const SENDING_SERVICES: readonly SendingService[] = [
  { id: 'google', name: 'Google Workspace', suffixes: ['google.com', 'googlemail.com'], spfIncludes: ['_spf.google.com'] },
  {
    id: 'microsoft',
    name: 'Microsoft 365',
    suffixes: ['protection.outlook.com', 'outbound.protection.outlook.com'],
    spfIncludes: ['spf.protection.outlook.com'],
  },
  { id: 'amazon_ses', name: 'Amazon SES', suffixes: ['amazonses.com', 'smtp-out.amazonses.com'], spfIncludes: ['amazonses.com'] },
  { id: 'sendgrid', name: 'SendGrid', suffixes: ['sendgrid.net'], spfIncludes: ['sendgrid.net'] },
  { id: 'mailgun', name: 'Mailgun', suffixes: ['mailgun.net', 'mailgun.org'], spfIncludes: ['mailgun.org', 'eu.mailgun.org'] },
  {
    id: 'mailchimp',
    name: 'Mailchimp (Mandrill)',
    suffixes: ['mcsv.net', 'rsgsv.net', 'mcdlv.net', 'mandrillapp.com'],
    spfIncludes: ['servers.mcsv.net', 'spf.mandrillapp.com'],
  },
  { id: 'postmark', name: 'Postmark', suffixes: ['mtasv.net'], spfIncludes: ['spf.mtasv.net'] },
  { id: 'sparkpost', name: 'SparkPost', suffixes: ['sparkpostmail.com'], spfIncludes: ['sparkpostmail.com'] },
  { id: 'hubspot', name: 'HubSpot', suffixes: ['hubspotemail.net', 'hubspot.net'], spfIncludes: ['_spf.hubspotemail.net'] },
  {
    id: 'salesforce',
    name: 'Salesforce Marketing Cloud',
    suffixes: ['exacttarget.com', 'salesforce.com'],
    spfIncludes: ['cust-spf.exacttarget.com', '_spf.salesforce.com'],
  },
  { id: 'zendesk', name: 'Zendesk', suffixes: ['zendesk.com'], spfIncludes: ['mail.zendesk.com'] },
  { id: 'brevo', name: 'Brevo (Sendinblue)', suffixes: ['sendinblue.com', 'brevo.com'], spfIncludes: ['spf.sendinblue.com', 'spf.brevo.com'] },
  { id: 'zoho', name: 'Zoho Mail', suffixes: ['zoho.com', 'zohomail.com'], spfIncludes: ['zoho.com', 'zohomail.com'] },
];
