import type { SuffixRule } from '../nameservers/match-host-suffix.js';

/**
 * Mailbox providers and security gateways by MX host suffix, matched on label boundaries.
 * Google: aspmx.l.google.com and its alternates, googlemail.com, and smtp.google.com (the single MX
 * Google has recommended since 2023). Microsoft: *.mail.protection.outlook.com (Exchange Online),
 * *.olc.protection.outlook.com (Outlook.com consumer domains) and *.mx.microsoft (the DNSSEC-signed
 * MX namespace Microsoft moved Exchange Online to from 2024).
 */
export const MAILBOX_PROVIDERS: readonly SuffixRule<'google' | 'microsoft'>[] = [
  { id: 'google', name: 'Google Workspace', suffixes: ['google.com', 'googlemail.com'] },
  { id: 'microsoft', name: 'Microsoft 365', suffixes: ['protection.outlook.com', 'mx.microsoft', 'outlook.com', 'hotmail.com'] },
];

/** Filtering services that sit in front of the real mailbox provider. */
export const SECURITY_GATEWAYS: readonly SuffixRule[] = [
  { id: 'proofpoint', name: 'Proofpoint', suffixes: ['pphosted.com', 'ppe-hosted.com', 'proofpoint.com'] },
  { id: 'mimecast', name: 'Mimecast', suffixes: ['mimecast.com', 'mimecast.co.za', 'mimecast-offshore.com'] },
  { id: 'barracuda', name: 'Barracuda Email Protection', suffixes: ['barracudanetworks.com', 'barracuda.com'] },
  { id: 'cisco', name: 'Cisco Secure Email (IronPort)', suffixes: ['iphmx.com'] },
  { id: 'trend_micro', name: 'Trend Micro Email Security', suffixes: ['trendmicro.com', 'trendmicro.eu'] },
  { id: 'sophos', name: 'Sophos Email', suffixes: ['sophos.com'] },
  { id: 'forcepoint', name: 'Forcepoint Email Security', suffixes: ['mailcontrol.com'] },
  { id: 'symantec', name: 'Symantec Email Security.cloud (Broadcom)', suffixes: ['messagelabs.com'] },
  { id: 'hornetsecurity', name: 'Hornetsecurity', suffixes: ['hornetsecurity.com'] },
  { id: 'spamtitan', name: 'SpamTitan', suffixes: ['spamtitan.com'] },
  { id: 'trustwave', name: 'Trustwave MailMarshal', suffixes: ['trustwave.com', 'mailmarshal.com'] },
  { id: 'fortinet', name: 'FortiMail Cloud', suffixes: ['fortimailcloud.com'] },
  { id: 'cloudflare_area1', name: 'Cloudflare Email Security (Area 1)', suffixes: ['mxrecord.io'] },
  { id: 'mailroute', name: 'MailRoute', suffixes: ['mailroute.net'] },
  { id: 'spamexperts', name: 'N-able Mail Assure (SpamExperts)', suffixes: ['spamexperts.com', 'spamexperts.eu', 'spamexperts.net', 'mtaroutes.com'] },
  { id: 'appriver', name: 'AppRiver (Zix)', suffixes: ['arsmtp.com', 'appriver.com'] },
];

/**
 * SPF includes that betray the mailbox provider behind a gateway: the domain's own outbound mail
 * still leaves through its real provider, whose SPF include it must publish.
 */
export const SPF_PROVIDER_HINTS: readonly { readonly include: string; readonly provider: 'google' | 'microsoft' }[] = [
  { include: '_spf.google.com', provider: 'google' },
  { include: 'spf.protection.outlook.com', provider: 'microsoft' },
  { include: 'spf.protection.office365.us', provider: 'microsoft' },
];
