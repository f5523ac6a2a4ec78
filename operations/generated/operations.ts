export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An instant, ISO 8601 in UTC. */
  DateTime: { input: string; output: string; }
  /** An object mapping a DNS provider's display name (or "Mixed", "unknown") to its number of domains. A scalar because its keys are provider names with spaces, which are not GraphQL names. */
  ProviderCounts: { input: Record<string, number>; output: Record<string, number>; }
  /** An included or redirected SPF record with its own terms, nested as deep as the record goes: {domain, outcome, record, lookups, void_lookups, errors, mechanisms: [term]} where each term has the fields of SpfTerm. A scalar because a GraphQL selection cannot follow a tree of unknown depth within the depth limit of 10. */
  SpfRecordTree: { input: unknown; output: unknown; }
};

export type AlertRecipientsInput = {
  /** The whole list (it replaces the one before): at most 10 e-mail addresses; [] for none. */
  emails: Array<Scalars['String']['input']>;
};

/** account: your account set it; default: the service-wide default applies. */
export enum AlertSettingSource {
  Account = 'account',
  Default = 'default'
}

export type AlertSettingsInput = {
  /** Percent, above 0 and at most 100 (one decimal kept); null or left out: back to the default. */
  dmarcPassRateThreshold: InputMaybe<Scalars['Float']['input']>;
};

/** Length of a period ending today: P1D, P7D, P14D, P30D, P90D (on REST and MCP 1d, 7d, 14d, 30d, 90d). */
export enum AnalyticsPeriod {
  /** 1 day (1d on REST and MCP). */
  P1D = 'P1D',
  /** 7 days (7d on REST and MCP). */
  P7D = 'P7D',
  /** 14 days (14d on REST and MCP). */
  P14D = 'P14D',
  /** 30 days (30d on REST and MCP). */
  P30D = 'P30D',
  /** 90 days (90d on REST and MCP). */
  P90D = 'P90D'
}

export type ApiKeyInput = {
  /** When the key stops working: after now, at most 3 years ahead. Leave it out for a key that does not expire. */
  expiresAt: InputMaybe<Scalars['DateTime']['input']>;
  /** Where the key is used, 1 to 100 characters. */
  name: Scalars['String']['input'];
  /** One or more of read, write, orders:place. */
  scopes: Array<Scalars['String']['input']>;
};

/** What was checked. */
export enum BlacklistInputKind {
  Domain = 'domain',
  Ipv4 = 'ipv4'
}

/** queued → building → waiting_for_dns → live; needs_attention (with a reason and the failing records). live only when every required record is verified and the provider reports the mailboxes created. */
export enum BuildState {
  Building = 'building',
  Live = 'live',
  NeedsAttention = 'needs_attention',
  Queued = 'queued',
  WaitingForDns = 'waiting_for_dns'
}

/** What a grade cap comes from. */
export enum CapPart {
  Blacklists = 'blacklists',
  Dkim = 'dkim',
  Dmarc = 'dmarc',
  DomainAge = 'domain_age',
  Mx = 'mx',
  Spf = 'spf',
  SpfAndDkim = 'spf_and_dkim'
}

export type CardSetupLinkInput = {
  /** Optional: the http(s) page to return to on cancel, on the same terms; otherwise the portal's billing page. */
  cancelUrl: InputMaybe<Scalars['String']['input']>;
  /** Optional: the http(s) page to return to after saving the card, followed when reachable (the service's own host, or https on a public DNS name); otherwise the portal's page confirming the card is saved. */
  successUrl: InputMaybe<Scalars['String']['input']>;
};

export type ChangePasswordInput = {
  /** The password you sign in with now. */
  currentPassword: Scalars['String']['input'];
  /** At least 10 characters. */
  newPassword: Scalars['String']['input'];
};

/** open (our team answers), done or declined. */
export enum ChangeRequestStatus {
  Declined = 'declined',
  Done = 'done',
  Open = 'open'
}

/** pass, warn (warnings), fail (errors); error when lookups failed or the request's bounds cut the check short. */
export enum CheckStatus {
  Error = 'error',
  Fail = 'fail',
  Pass = 'pass',
  Warn = 'warn'
}

/** How sure the verdict is. */
export enum Confidence {
  High = 'high',
  Low = 'low',
  Medium = 'medium'
}

/** A DKIM key algorithm. */
export enum DkimKeyType {
  Ed25519 = 'ed25519',
  Rsa = 'rsa'
}

/** adkim/aspf: relaxed or strict. */
export enum DmarcAlignment {
  R = 'r',
  S = 's'
}

/** A DMARC policy (p=, sp=, np=). */
export enum DmarcPolicy {
  None = 'none',
  Quarantine = 'quarantine',
  Reject = 'reject'
}

/** psd=: public suffix domain flag. */
export enum DmarcPsd {
  N = 'n',
  U = 'u',
  Y = 'y'
}

/** none: p=none (monitoring); quarantine_25: p=quarantine; pct=25; quarantine: p=quarantine; reject: p=reject. The ramp climbs one step at a time (docs/dmarc-ramp.md). */
export enum DmarcRampStep {
  None = 'none',
  Quarantine = 'quarantine',
  Quarantine_25 = 'quarantine_25',
  Reject = 'reject'
}

/** advanced: a step published; reverted: a step undone through the journal. */
export enum DmarcRampStepKind {
  Advanced = 'advanced',
  Reverted = 'reverted'
}

/** Why a report destination could not be judged. */
export enum DmarcReportProblem {
  LookupFailed = 'lookup_failed',
  NotAnAddress = 'not_an_address',
  NotMailto = 'not_mailto'
}

/** A report tag. */
export enum DmarcReportTag {
  Rua = 'rua',
  Ruf = 'ruf'
}

/** t=: testing mode. */
export enum DmarcTesting {
  N = 'n',
  Y = 'y'
}

/** add: a record is added beside what is there. replace: the record takes the place of the records in `replaces`, removed in the same update. */
export enum DnsChangeAction {
  Add = 'add',
  Replace = 'replace'
}

export type DnsConnectionInput = {
  /** rfc2136: hmac-sha256 (the default) or hmac-sha512. */
  algorithm: InputMaybe<TsigAlgorithm>;
  /** cloudflare: an API token with Zone > DNS > Edit. Stored encrypted, never shown again. */
  apiToken: InputMaybe<Scalars['String']['input']>;
  /** rfc2136: the TSIG key’s name, as in the server’s key statement. */
  keyName: InputMaybe<Scalars['String']['input']>;
  /** One of rfc2136, cloudflare. */
  kind: DnsConnectionKind;
  /** A name to tell connections apart; at most 100 characters. */
  label: InputMaybe<Scalars['String']['input']>;
  /** rfc2136: 1 to 65535; 53 when left out. */
  port: InputMaybe<Scalars['Int']['input']>;
  /** rfc2136: the TSIG secret in base64. Stored encrypted, never shown again. */
  secret: InputMaybe<Scalars['String']['input']>;
  /** rfc2136: the primary DNS server’s public IP address or host name. */
  server: InputMaybe<Scalars['String']['input']>;
};

/** How records are published: rfc2136 (dynamic update signed with TSIG: BIND, Knot, PowerDNS) or cloudflare (an API token). */
export enum DnsConnectionKind {
  Cloudflare = 'cloudflare',
  Rfc2136 = 'rfc2136'
}

/** records found; nodata: the name exists without this type; nxdomain; failed lookup. */
export enum DnsOutcome {
  Failed = 'failed',
  Nodata = 'nodata',
  Nxdomain = 'nxdomain',
  Records = 'records'
}

/** The record types check-dns reads (REST takes them in any case). */
export enum DnsType {
  A = 'A',
  Aaaa = 'AAAA',
  Caa = 'CAA',
  Cname = 'CNAME',
  Mx = 'MX',
  Ns = 'NS',
  Soa = 'SOA',
  Txt = 'TXT'
}

/** What a list lists. */
export enum DnsblKind {
  Domain = 'domain',
  Ip = 'ip'
}

/** DNSSEC validation as the resolver reported it: secure (AD set), insecure (AD clear: unsigned, or a resolver that does not validate), bogus (SERVFAIL with an Extended DNS Error saying validation failed), indeterminate (the reply did not tell, or no reply). docs/dnssec.md. */
export enum DnssecStatus {
  Bogus = 'bogus',
  Indeterminate = 'indeterminate',
  Insecure = 'insecure',
  Secure = 'secure'
}

/** Why an address is or is not deliverable. */
export enum EmailReason {
  Deliverable = 'deliverable',
  DnsLookupFailed = 'dns_lookup_failed',
  DomainNotFound = 'domain_not_found',
  InvalidSyntax = 'invalid_syntax',
  MailHostsDoNotResolve = 'mail_hosts_do_not_resolve',
  MailHostsNotLookedUp = 'mail_hosts_not_looked_up',
  NoMailRoute = 'no_mail_route',
  NullMx = 'null_mx'
}

/** A mail provider segment. */
export enum EspSegment {
  Google = 'google',
  Microsoft = 'microsoft',
  Other = 'other',
  SecurityGateway = 'security_gateway',
  Unresolved = 'unresolved'
}

/** A kind of tenancy evidence. */
export enum EvidenceKind {
  GoogleDkim = 'google_dkim',
  GoogleMx = 'google_mx',
  GoogleSiteVerification = 'google_site_verification',
  GoogleSpfInclude = 'google_spf_include',
  SignInDiscovery = 'sign_in_discovery'
}

export type FileDomainInput = {
  /** The folder to file the domain in; null unfiles it. */
  workspaceId: InputMaybe<Scalars['Int']['input']>;
};

/** The provider found behind a security gateway. */
export enum GatewayProvider {
  Google = 'google',
  Microsoft = 'microsoft'
}

/** A letter grade. */
export enum Grade {
  A = 'A',
  B = 'B',
  C = 'C',
  D = 'D',
  F = 'F'
}

/** A part of the grade. */
export enum GradePart {
  Blacklists = 'blacklists',
  Dkim = 'dkim',
  Dmarc = 'dmarc',
  DomainAge = 'domain_age',
  Mx = 'mx',
  Spf = 'spf'
}

/** Stripe's invoice status: draft, open (owed), paid, uncollectible, void. */
export enum InvoiceStatus {
  Draft = 'draft',
  Open = 'open',
  Paid = 'paid',
  Uncollectible = 'uncollectible',
  Void = 'void'
}

/** pending: not created at the provider yet (the build makes it). active: created and usable. suspended: the provider stopped it. */
export enum MailboxStatus {
  Active = 'active',
  Pending = 'pending',
  Suspended = 'suspended'
}

/** Verified or common mark certificate. */
export enum MarkType {
  Cmc = 'CMC',
  Vmc = 'VMC'
}

export type MonitorsInput = {
  /** Watch inbox placement and blacklists. */
  deliverability: InputMaybe<Scalars['Boolean']['input']>;
  /** Reconnect inboxes the sending tool drops. */
  reconnection: InputMaybe<Scalars['Boolean']['input']>;
};

/** The policy mode. */
export enum MtaStsMode {
  Enforce = 'enforce',
  None = 'none',
  Testing = 'testing'
}

/** How the NS lookup went. */
export enum NameserverOutcome {
  Invalid = 'invalid',
  LookupFailed = 'lookup_failed',
  NoNameservers = 'no_nameservers',
  NotFound = 'not_found',
  Ok = 'ok'
}

/** How a name server answered for the zone. */
export enum NameserverStatus {
  Authoritative = 'authoritative',
  Lame = 'lame',
  NoAddress = 'no_address',
  Unreachable = 'unreachable'
}

export type OrderDomainInput = {
  /** A registered domain the caller owns. */
  domain: Scalars['String']['input'];
  /** The domain visitors of this one are forwarded to. */
  forwardTo: InputMaybe<Scalars['String']['input']>;
  /** The domain's mailboxes; at most 2,000 mailboxes across the whole order. */
  mailboxes: Array<OrderMailboxInput>;
};

export type OrderInput = {
  /** At most 500 domains and 2,000 mailboxes per order (SPEC 4.2). */
  domains: Array<OrderDomainInput>;
  promotionCode: InputMaybe<Scalars['String']['input']>;
  sku: Scalars['String']['input'];
};

export type OrderMailboxInput = {
  /** 1 to 64 letters (spaces, hyphens, apostrophes and dots allowed), starting with a letter. */
  firstName: Scalars['String']['input'];
  /** 1 to 64 letters (spaces, hyphens, apostrophes and dots allowed), starting with a letter. */
  lastName: Scalars['String']['input'];
  /** The part before the @: 1 to 64 of a-z, 0-9, dot, hyphen and underscore, starting and ending with a letter or digit. */
  localPart: Scalars['String']['input'];
};

/** The order's subscription: active; trialing; past_due (a renewal failed, retried); unpaid (retries ended); incomplete (the first payment did not complete); paused; cancelled. */
export enum OrderStatus {
  Active = 'active',
  Cancelled = 'cancelled',
  Incomplete = 'incomplete',
  PastDue = 'past_due',
  Paused = 'paused',
  Trialing = 'trialing',
  Unpaid = 'unpaid'
}

export type PayInvoicesInput = {
  /** One invoice to pay; leave it out to pay every open invoice. */
  invoiceNumber: InputMaybe<Scalars['String']['input']>;
};

export type PlanRequestInput = {
  /** What you want to order, in a sentence or two (1 to 2,000 characters). */
  message: Scalars['String']['input'];
  /** A plan of your catalogue you want but cannot order yet, if any. */
  sku: InputMaybe<Scalars['String']['input']>;
};

export type RaiseRequestInput = {
  /** Kind forwarding only: the domain every domain of the order forwards to. */
  forwardTo: InputMaybe<Scalars['String']['input']>;
  /** One of forwarding, rename_mailbox, add_mailboxes, remove_mailboxes, remove_domain, dns_change, cancel_order, billing, other. */
  kind: RequestKind;
  subscriptionId: Scalars['String']['input'];
  /** What to change, at most 2,000 characters. */
  summary: Scalars['String']['input'];
};

/** pending or paid. */
export enum ReferralEarningStatus {
  Paid = 'paid',
  Pending = 'pending'
}

/** Where the registration data came from. */
export enum RegistrationSource {
  Rdap = 'rdap',
  Whois = 'whois'
}

/** stored; duplicate (the same organisation and report id was stored before: counted once); unknown_domain (not a domain of your account: dropped); refused (unreadable or unsafe: see code and detail). */
export enum ReportFileStatus {
  Duplicate = 'duplicate',
  Refused = 'refused',
  Stored = 'stored',
  UnknownDomain = 'unknown_domain'
}

/** dmarc: a DMARC aggregate report (RFC 7489, RFC 9990); tls: a TLS-RPT report (RFC 8460). */
export enum ReportKind {
  Dmarc = 'dmarc',
  Tls = 'tls'
}

export type ReportUploadInput = {
  /** The report file in base64: DMARC aggregate XML, .xml.gz, .zip, a whole message (.eml), or TLS-RPT .json / .json.gz. */
  content: Scalars['String']['input'];
  /** The file name, for the answer and the log. */
  filename: InputMaybe<Scalars['String']['input']>;
};

/** What a change request asks for: forwarding, rename_mailbox, add_mailboxes, remove_mailboxes, remove_domain, dns_change, cancel_order, billing, other. */
export enum RequestKind {
  /** Add mailboxes to domains already on the order. */
  AddMailboxes = 'add_mailboxes',
  /** A question or correction about an invoice. */
  Billing = 'billing',
  /** Cancel the order at the end of its billing period. */
  CancelOrder = 'cancel_order',
  /** Change a DNS record we manage for the order. */
  DnsChange = 'dns_change',
  /** Point every domain of the order at a new forward_to domain (applied at once). */
  Forwarding = 'forwarding',
  /** Anything else. */
  Other = 'other',
  /** Take a domain off the order. */
  RemoveDomain = 'remove_domain',
  /** Remove mailboxes from the order. */
  RemoveMailboxes = 'remove_mailboxes',
  /** Rename a mailbox or change its display name. */
  RenameMailbox = 'rename_mailbox'
}

/** A sending tool an order's inboxes connect to: instantly, smartlead, lemlist, apollo, reply, woodpecker, saleshandy, outreach, salesloft, hubspot, mailshake, quickmail, emelia, plusvibe, other, none; none disconnects. */
export enum Sequencer {
  /** Apollo.io */
  Apollo = 'apollo',
  /** Emelia */
  Emelia = 'emelia',
  /** HubSpot Sequences */
  Hubspot = 'hubspot',
  /** Instantly */
  Instantly = 'instantly',
  /** lemlist */
  Lemlist = 'lemlist',
  /** Mailshake */
  Mailshake = 'mailshake',
  /** not connected to a sending tool */
  None = 'none',
  /** another tool (tell us which with a change request) */
  Other = 'other',
  /** Outreach */
  Outreach = 'outreach',
  /** PlusVibe */
  Plusvibe = 'plusvibe',
  /** QuickMail */
  Quickmail = 'quickmail',
  /** Reply.io */
  Reply = 'reply',
  /** Saleshandy */
  Saleshandy = 'saleshandy',
  /** Salesloft */
  Salesloft = 'salesloft',
  /** Smartlead */
  Smartlead = 'smartlead',
  /** Woodpecker */
  Woodpecker = 'woodpecker'
}

export type SequencerInput = {
  /** One of instantly, smartlead, lemlist, apollo, reply, woodpecker, saleshandy, outreach, salesloft, hubspot, mailshake, quickmail, emelia, plusvibe, other, none (any case on REST and MCP). */
  sequencer: Sequencer;
};

/** apply: a publish of the setup. revert: the undoing of one (revertsApplyId). */
export enum SetupApplyKind {
  Apply = 'apply',
  Revert = 'revert'
}

/** What the record is for: mail hosts, SPF, DKIM, DMARC, web forwarding, proof of control, TLS reports (optional). */
export enum SetupRecordPurpose {
  Dkim = 'dkim',
  Dmarc = 'dmarc',
  Forwarding = 'forwarding',
  Mx = 'mx',
  Spf = 'spf',
  TlsRpt = 'tls_rpt',
  Verification = 'verification'
}

/** verified: published as wanted. missing: nothing there. wrong: something else is there (see found). conflict: what is there fights the record (two SPF records, another provider’s MX, SPF past 10 lookups). unknown: the lookup failed; checked again. delegated: the name is an alias (CNAME) of a record hosted elsewhere (a hosted DMARC policy), changed there and never overwritten. */
export enum SetupRecordStatus {
  Conflict = 'conflict',
  Delegated = 'delegated',
  Missing = 'missing',
  Unknown = 'unknown',
  Verified = 'verified',
  Wrong = 'wrong'
}

export enum SetupRecordType {
  A = 'A',
  Cname = 'CNAME',
  Mx = 'MX',
  Txt = 'TXT'
}

/** How much a finding matters. */
export enum Severity {
  Error = 'error',
  Info = 'info',
  Warning = 'warning'
}

/** An RFC 7208 check_host() result. */
export enum SpfResult {
  Fail = 'fail',
  Neutral = 'neutral',
  None = 'none',
  Pass = 'pass',
  Permerror = 'permerror',
  Softfail = 'softfail',
  Temperror = 'temperror'
}

/** Which RFC 7208 limit stopped the expansion. */
export enum SpfStopReason {
  DnsLookups = 'dns_lookups',
  MxNames = 'mx_names',
  VoidLookups = 'void_lookups'
}

/** The mail provider whose tenancy is assessed. */
export enum TenancyProvider {
  GoogleWorkspace = 'google_workspace'
}

/** The TSIG key's HMAC: hmac-sha256 or hmac-sha512. */
export enum TsigAlgorithm {
  HmacSha256 = 'hmac_sha256',
  HmacSha512 = 'hmac_sha512'
}

export enum UserRole {
  Member = 'member',
  Owner = 'owner'
}

/** pending (retried with backoff for a day), delivered or failed. */
export enum WebhookDeliveryStatus {
  Delivered = 'delivered',
  Failed = 'failed',
  Pending = 'pending'
}

export type WebhookInput = {
  /** At most 200 characters. */
  description: InputMaybe<Scalars['String']['input']>;
  /** Any of order.placed, domain.live, domain.needs_attention, domain.listed, domain.delisted, monitor.changed, invoice.past_due, webhook.test, invoice.paid, mailbox.disconnected, mailbox.reconnected, mailbox.credentials_revealed, mailbox.password_reset, mailbox.suspended, mailbox.reactivated, dmarc.failures, tls.failures, domain.dmarc_advanced, domain.dmarc_reverted; omitted or "*": all. */
  events: InputMaybe<Array<Scalars['String']['input']>>;
  /** An https:// address on the public internet. */
  url: InputMaybe<Scalars['String']['input']>;
};

export type WorkspaceNameInput = {
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
};

export type AdvanceDmarcRampMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  connectionId: Scalars['Int']['input'];
  dryRun: Scalars['Boolean']['input'];
}>;


export type AdvanceDmarcRampMutation = { advanceDmarcRamp: { domain: string, connectionId: number, dryRun: boolean, fromStep: DmarcRampStep, toStep: DmarcRampStep, recordBefore: string, recordAfter: string, applyId: number | null, stepId: number | null, changes: Array<{ action: DnsChangeAction, record: { type: string, name: string, value: string, ttl: number, priority: number | null }, replaces: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> } };

export type AlertRecipientsQueryVariables = Exact<{ [key: string]: never; }>;


export type AlertRecipientsQuery = { alertRecipients: { emails: Array<string>, maxEmails: number } };

export type AlertSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type AlertSettingsQuery = { alertSettings: { dmarcPassRateThreshold: number, dmarcPassRateThresholdSource: AlertSettingSource, dmarcPassRateThresholdDefault: number, dmarcMinMessages: number } };

export type AnalyticsQueryVariables = Exact<{
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type AnalyticsQuery = { analytics: { period: AnalyticsPeriod, from: string, to: string, domains: Array<{ domain: string, watched: boolean, sent: number | null, delivered: number | null, bounced: number | null, replied: number | null, bounceRate: number | null, replyRate: number | null, inboxRate: number | null, spamRate: number | null, reportedMessages: number | null, dmarcPassRate: number | null, failingSources: number | null, tlsSessions: number | null, tlsFailureRate: number | null }> } };

export type ApplyDomainSetupMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  connectionId: Scalars['Int']['input'];
  dryRun: Scalars['Boolean']['input'];
}>;


export type ApplyDomainSetupMutation = { applyDomainSetup: { domain: string, connectionId: number, dryRun: boolean, buildState: BuildState, ready: boolean, applyId: number | null, cachesMayHoldUntil: string | null, cacheNote: string | null, changes: Array<{ action: DnsChangeAction, record: { type: string, name: string, value: string, ttl: number, priority: number | null }, replaces: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> } };

export type BillingQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type BillingQuery = { billing: { currency: string, monthToDateSpend: number, pastDueAmount: number, pastDueInvoices: Array<{ number: string, status: InvoiceStatus, amountDue: number, amountPaid: number, currency: string, issuedAt: string, dueAt: string, paidAt: string | null, orderReference: string | null, pastDue: boolean, amountRemaining: number, domains: Array<string>, hostedInvoiceUrl: string | null, lastPaymentError: string | null, lines: Array<{ description: string, quantity: number, unitAmount: number, amount: number }> }>, nextCharge: { amount: number, currency: string, date: string } | null, invoicesConnection: { nodes: Array<{ number: string, status: InvoiceStatus, amountDue: number, amountPaid: number, currency: string, issuedAt: string, dueAt: string, paidAt: string | null, orderReference: string | null, pastDue: boolean, amountRemaining: number, domains: Array<string>, hostedInvoiceUrl: string | null, lastPaymentError: string | null, lines: Array<{ description: string, quantity: number, unitAmount: number, amount: number }> }>, pageInfo: { hasNextPage: boolean } } } };

export type CardSetupLinkMutationVariables = Exact<{
  input: CardSetupLinkInput;
}>;


export type CardSetupLinkMutation = { createCardSetupLink: { url: string, expiresAt: string } };

export type CatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type CatalogueQuery = { catalogue: Array<{ sku: string, product: string, description: string, unitAmount: number, currency: string, interval: string, mailboxesPerUnit: number, orderable: boolean, whyNot: string | null }> };

export type CheckBimiQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  selector: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckBimiQuery = { checkBimi:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, selector: string, recordDomain: string | null, record: string | null, valid: boolean, declined: boolean, logoUrl: string | null, authorityUrl: string | null, dmarcEnforced: boolean | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, dmarcDetail: { domainRecord: string | null, organizationalDomain: string, organizationalRecord: string | null, policy: DmarcPolicy | null, subdomainPolicy: DmarcPolicy | null, pct: number | null, changes: Array<string> }, logo: { fetched: boolean, sizeBytes: number | null, svgTinyPsValid: boolean | null, problems: Array<string> } | null, certificate: { fetched: boolean, subject: string | null, issuer: string | null, validFrom: string | null, validTo: string | null, expired: boolean | null, coversDomain: boolean | null, names: Array<string>, markType: MarkType | null, logoEmbedded: boolean, logoMatches: boolean | null, chainTrusted: boolean | null, trustAnchor: string | null, problems: Array<string> } | null }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckBlacklistQueryVariables = Exact<{
  input: Scalars['String']['input'];
}>;


export type CheckBlacklistQuery = { checkBlacklist:
    | { status: CheckStatus, summary: string, input: string, inputKind: BlacklistInputKind, domain: string | null, domainUnicode: string | null, listedCount: number, checkedCount: number, unansweredCount: number, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, checked: { description: string, domain: string | null, mailHosts: Array<string>, addresses: Array<string>, domainLists: number, ipLists: number }, lists: Array<{ list: string, listId: string, zone: string, target: string, kind: DnsblKind, listed: boolean | null, removalUrl: string, reason: string | null, alive: boolean | null, codes: Array<{ code: string, meaning: string }> }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckCnameQueryVariables = Exact<{
  host: Scalars['String']['input'];
  expected: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckCnameQuery = { checkCname:
    | { status: CheckStatus, summary: string, host: string, hostUnicode: string | null, expected: string | null, matchesExpected: boolean | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, chain: Array<{ name: string, target: string, ttl: number }>, final: { name: string, addresses: Array<string> } }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDeliverabilityQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDeliverabilityQuery = { checkDeliverability:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, grade: Grade | null, score: number | null, uncheckedWeight: number, notScored: Array<GradePart>, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, breakdown: { spf: { score: number | null, weight: number, effectiveWeight: number | null, points: number | null, status: CheckStatus, detail: string, cap: Grade | null }, dkim: { score: number | null, weight: number, effectiveWeight: number | null, points: number | null, status: CheckStatus, detail: string, cap: Grade | null }, dmarc: { score: number | null, weight: number, effectiveWeight: number | null, points: number | null, status: CheckStatus, detail: string, cap: Grade | null }, mx: { score: number | null, weight: number, effectiveWeight: number | null, points: number | null, status: CheckStatus, detail: string, cap: Grade | null }, blacklists: { score: number | null, weight: number, effectiveWeight: number | null, points: number | null, status: CheckStatus, detail: string, cap: Grade | null }, domainAge: { score: number | null, weight: number, effectiveWeight: number | null, points: number | null, status: CheckStatus, detail: string, cap: Grade | null } }, caps: Array<{ part: CapPart, grade: Grade, code: string, reason: string }>, fixes: Array<{ part: GradePart, code: string, points: number, fix: string, capsGradeAt: Grade | null }>, checks: { spf: { check: string, status: CheckStatus, summary: string }, dkim: { check: string, status: CheckStatus, summary: string }, dmarc: { check: string, status: CheckStatus, summary: string }, mx: { check: string, status: CheckStatus, summary: string }, blacklists: { check: string, status: CheckStatus, summary: string }, domainAge: { check: string, status: CheckStatus, summary: string } } }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDkimQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  selector: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDkimQuery = { checkDkim:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, selector: string | null, selectorsChecked: Array<string>, domainkeyExists: boolean | null, wildcard: boolean | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, keys: Array<{ selector: string, record: string, valid: boolean, keyType: DkimKeyType | null, keyBits: number | null, testing: boolean, hashAlgorithms: Array<string>, serviceTypes: Array<string>, findings: Array<{ severity: Severity, code: string, message: string }> }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDmarcQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDmarcQuery = { checkDmarc:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, record: string | null, valid: boolean, source: string | null, organizationalDomain: string | null, inherited: boolean, policy: DmarcPolicy | null, subdomainPolicy: DmarcPolicy | null, effectivePolicy: DmarcPolicy | null, pct: number | null, adkim: DmarcAlignment | null, aspf: DmarcAlignment | null, rua: Array<string>, ruf: Array<string>, fo: Array<string> | null, ri: number | null, np: DmarcPolicy | null, t: DmarcTesting | null, psd: DmarcPsd | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, tags: Array<{ tag: string, value: string, meaning: string }>, reportDestinations: Array<{ tag: DmarcReportTag, uri: string, destination: string | null, external: boolean, authorizationRecord: string | null, authorized: boolean | null, problem: DmarcReportProblem | null }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDnsQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  type: InputMaybe<DnsType>;
}>;


export type CheckDnsQuery = { checkDns:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, type: DnsType, outcome: DnsOutcome, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, records: Array<
        | { address: string, ttl: number }
        | { flags: number, tag: string, value: string, ttl: number }
        | { preference: number, exchange: string, ttl: number }
        | { target: string, ttl: number }
        | { mname: string, rname: string, serial: number, refresh: number, retry: number, expire: number, minimum: number, ttl: number }
        | { value: string, strings: Array<string>, ttl: number }
      > }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDomainExpiryQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDomainExpiryQuery = { checkDomainExpiry:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, registeredDomain: string, registered: boolean | null, registrar: string | null, created: string | null, expires: string | null, daysRemaining: number | null, ageDays: number | null, source: RegistrationSource | null, server: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDomainSetupMutationVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDomainSetupMutation = { checkDomainSetup: { domain: string, buildState: BuildState, ready: boolean, reason: string | null, checkedAt: string, readFrom: string, cachesMayHoldUntil: string | null, cacheNote: string | null, records: Array<{ purpose: SetupRecordPurpose, type: SetupRecordType, name: string, value: string, ttl: number, priority: number | null, required: boolean, status: SetupRecordStatus, found: Array<string>, detail: string }> } };

export type CheckMtaStsQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckMtaStsQuery = { checkMtaSts:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, record: string | null, recordId: string | null, policyUrl: string, policyError: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, policy: { version: string, mode: MtaStsMode, mx: Array<string>, maxAge: number } | null, mxHosts: Array<{ host: string, matchesPolicy: boolean | null }>, tlsRpt: { record: string, rua: Array<string>, valid: boolean } | null }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckNameserversQueryVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type CheckNameserversQuery = { checkNameservers:
    | { status: CheckStatus, summary: string, providerCounts: Record<string, number>, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, results: Array<{ domain: string, domainUnicode: string | null, zone: string | null, outcome: NameserverOutcome, nameservers: Array<string>, provider: string | null, reason: string | null, dnssec: DnssecStatus | null, providers: Array<{ id: string, name: string, nameservers: Array<string> }>, delegation: { parentZone: string, parentNameservers: Array<string> | null, parentReason: string | null, childNameservers: Array<string>, onlyAtParent: Array<string>, onlyAtChild: Array<string>, serialsAgree: boolean | null, servers: Array<{ nameserver: string, addresses: Array<string>, status: NameserverStatus, serial: number | null, reason: string | null }> } | null }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckProviderDomainQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckProviderDomainQuery = { checkProviderDomain:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, provider: TenancyProvider, attached: boolean | null, confidence: Confidence, note: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, evidence: Array<{ kind: EvidenceKind, found: boolean | null, detail: string }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckSpfQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  ip: InputMaybe<Scalars['String']['input']>;
  sender: InputMaybe<Scalars['String']['input']>;
  helo: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckSpfQuery = { checkSpf:
    | { status: CheckStatus, summary: string, domain: string, domainUnicode: string | null, record: string | null, valid: boolean, lookupCount: number, voidLookupCount: number, ip: string | null, sender: string | null, helo: string | null, result: SpfResult | null, matchedMechanism: string | null, explanation: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, mechanisms: Array<{ term: string, qualifier: string | null, mechanism: string, value: string | null, lookups: number, evaluated: boolean, voidLookup: boolean, pastLimit: boolean, errors: Array<string>, children: unknown | null }>, expansionStopped: { reason: SpfStopReason, term: string, domain: string, depth: number, path: Array<string> } | null, divergence: Array<{ rule: string, receivers: Array<string>, detail: string, voidLookupCount: number, valid: boolean, result: SpfResult | null }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckUriblQueryVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type CheckUriblQuery = { checkUribl:
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
    | { status: CheckStatus, summary: string, listedCount: number, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, results: Array<{ domain: string, domainUnicode: string | null, queried: string | null, listed: boolean | null, reason: string | null, lists: Array<{ list: string, listId: string, zone: string, listed: boolean | null, removalUrl: string, reason: string | null, alive: boolean | null, codes: Array<{ code: string, meaning: string }> }> }> }
   };

export type CreateDnsConnectionMutationVariables = Exact<{
  input: DnsConnectionInput;
}>;


export type CreateDnsConnectionMutation = { createDnsConnection: { connectionId: number, kind: DnsConnectionKind, label: string | null, server: string | null, port: number | null, keyName: string | null, algorithm: TsigAlgorithm | null, createdAt: string } };

export type CreateWebhookMutationVariables = Exact<{
  input: WebhookInput;
}>;


export type CreateWebhookMutation = { createWebhook: { webhookId: number, url: string, events: Array<string>, description: string | null, createdAt: string, secret: string | null } };

export type CreateWorkspaceMutationVariables = Exact<{
  input: WorkspaceNameInput;
}>;


export type CreateWorkspaceMutation = { createWorkspace: { workspaceId: number, name: string, domainCount: number, createdAt: string } };

export type DashboardQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type DashboardQuery = { dashboard: { accountId: number, accountName: string, orderCount: number, domainCount: number, mailboxCount: number, domainsConnection: { pageInfo: { hasNextPage: boolean }, orders: Array<{ orderId: number, subscriptionId: string, reference: string, sku: string, product: string, status: OrderStatus, createdAt: string, domains: Array<{ domain: string, buildState: BuildState, mailboxCount: number, forwardTo: string | null, workspaceId: number | null, workspaceName: string | null, buildReason: string | null, buildProblems: Array<{ code: string, message: string }> }> }> } } };

export type DeleteDnsConnectionMutationVariables = Exact<{
  connectionId: Scalars['Int']['input'];
}>;


export type DeleteDnsConnectionMutation = { deleteDnsConnection: { connectionId: number, deleted: boolean } };

export type DeleteWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
}>;


export type DeleteWebhookMutation = { deleteWebhook: { webhookId: number, deleted: boolean } };

export type DeleteWorkspaceMutationVariables = Exact<{
  workspaceId: Scalars['Int']['input'];
}>;


export type DeleteWorkspaceMutation = { deleteWorkspace: { workspaceId: number, deleted: boolean, unfiledDomainCount: number } };

export type DmarcRampSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type DmarcRampSettingsQuery = { dmarcRampSettings: { autoAdvance: boolean } };

export type DmarcRampQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DmarcRampQuery = { dmarcRamp: { domain: string, step: DmarcRampStep | null, record: string | null, readFrom: string, nextStep: DmarcRampStep | null, ready: boolean, blockedBy: string | null, autoAdvance: boolean, connectionId: number | null, window: { from: string, to: string, days: number, messages: number, passed: number, passRate: number | null }, failingSources: Array<{ sourceIp: string, ptr: string | null, service: string | null, failed: number, ownSender: boolean | null }>, revertOffered: { stepId: number, applyId: number, reason: string } | null, timeline: Array<{ id: number, kind: DmarcRampStepKind, fromStep: DmarcRampStep, toStep: DmarcRampStep, recordBefore: string, recordAfter: string, applyId: number, automatic: boolean, passRate: number | null, reason: string, at: string }> } };

export type DnsConnectionsQueryVariables = Exact<{ [key: string]: never; }>;


export type DnsConnectionsQuery = { dnsConnections: Array<{ connectionId: number, kind: DnsConnectionKind, label: string | null, server: string | null, port: number | null, keyName: string | null, algorithm: TsigAlgorithm | null, createdAt: string }> };

export type DomainMailboxesQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DomainMailboxesQuery = { domainMailboxes: { domain: string, mailboxes: Array<{ email: string, firstName: string, lastName: string, status: MailboxStatus }> } };

export type DomainSetupAppliesQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type DomainSetupAppliesQuery = { domainSetupApplies: { nodes: Array<{ applyId: number, kind: SetupApplyKind, revertsApplyId: number | null, appliedAt: string, connectionId: number, revertedAt: string | null, changes: Array<{ name: string, type: string, before: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, after: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, replaced: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, added: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> }>, pageInfo: { hasNextPage: boolean } } };

export type DomainSetupZoneQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DomainSetupZoneQuery = { domainSetupZone: string };

export type DomainSetupQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DomainSetupQuery = { domainSetup: { domain: string, buildState: BuildState, ready: boolean, reason: string | null, checkedAt: string, readFrom: string, cachesMayHoldUntil: string | null, cacheNote: string | null, records: Array<{ purpose: SetupRecordPurpose, type: SetupRecordType, name: string, value: string, ttl: number, priority: number | null, required: boolean, status: SetupRecordStatus, found: Array<string>, detail: string }> } };

export type DomainSourcesQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type DomainSourcesQuery = { domainSources: { domain: string, period: AnalyticsPeriod, from: string, to: string, sources: Array<{ sourceIp: string, ptr: string | null, messages: number, passed: number, passRate: number, dkimAligned: number, spfAligned: number, quarantined: number, rejected: number, reporters: number, firstDay: string, lastDay: string }> } };

export type DomainVerificationQueryVariables = Exact<{ [key: string]: never; }>;


export type DomainVerificationQuery = { domainVerification: { token: string, record: { nameTemplate: string, type: string, value: string }, verifiedDomains: Array<{ domain: string, verifiedAt: string }> } };

export type EventsQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type EventsQuery = { events: { hasMore: boolean, data: Array<{ id: string, type: string, created: string, dataJson: string }> } };

export type FileDomainMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  input: FileDomainInput;
}>;


export type FileDomainMutation = { fileDomain: { domain: string, workspaceId: number | null, workspaceName: string | null } };

export type OrderExportQueryVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  format: InputMaybe<Scalars['String']['input']>;
}>;


export type OrderExportQuery = { orderExport: string };

export type OrdersQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type OrdersQuery = { ordersConnection: { nodes: Array<{ orderId: number, subscriptionId: string, reference: string, sku: string, product: string, status: OrderStatus, quantity: number, unitAmount: number, currency: string, interval: string, renewalTotal: number, sequencer: Sequencer | null, monitorReconnection: boolean, monitorDeliverability: boolean, domainCount: number, mailboxCount: number, createdAt: string }>, pageInfo: { hasNextPage: boolean } } };

export type PayInvoicesMutationVariables = Exact<{
  input: PayInvoicesInput;
}>;


export type PayInvoicesMutation = { payInvoices: { paidCount: number, paidAmount: number, currency: string, detail: string, results: Array<{ number: string, amount: number, currency: string, outcome: string, message: string }> } };

export type PaymentMethodQueryVariables = Exact<{ [key: string]: never; }>;


export type PaymentMethodQuery = { paymentMethod: { onFile: boolean, brand: string | null, last4: string | null, expMonth: number | null, expYear: number | null } };

export type PlaceOrderMutationVariables = Exact<{
  order: OrderInput;
  idempotencyKey: InputMaybe<Scalars['String']['input']>;
}>;


export type PlaceOrderMutation = { placeOrder: { orderId: number, reference: string, subscriptionId: string, sku: string, status: OrderStatus, quantity: number, domains: number, mailboxes: number, total: number, replayed: boolean, charged: { amount: number, currency: string } } };

export type PreviewOrderQueryVariables = Exact<{
  order: OrderInput;
}>;


export type PreviewOrderQuery = { previewOrder: { ok: boolean, sku: string, product: string, domains: number, mailboxes: number, quantity: number, price: { unitAmount: number, currency: string, interval: string, mailboxesPerUnit: number, total: number, firstInvoice: number }, discount: { code: string, percentOff: number | null, amountOff: number | null, duration: string, durationInMonths: number | null, appliesTo: string, amount: number, description: string } | null, problems: Array<{ domain: string, index: number, issues: Array<{ severity: string, code: string, field: string, message: string }> }> } };

export type RaiseRequestMutationVariables = Exact<{
  input: RaiseRequestInput;
}>;


export type RaiseRequestMutation = { raiseRequest: { domainsRepointed: number, request: { requestId: number, subscriptionId: string, kind: RequestKind, summary: string, forwardTo: string | null, status: ChangeRequestStatus, createdAt: string, replies: Array<{ author: string, body: string, createdAt: string }> } } };

export type ReferralsQueryVariables = Exact<{ [key: string]: never; }>;


export type ReferralsQuery = { referrals: { code: string | null, link: string | null, terms: string, sharePercent: number, payoutDestination: string | null, currency: string, earnedTotal: number, pendingTotal: number, paidTotal: number, earnings: Array<{ referredAccount: string, amount: number, currency: string, status: ReferralEarningStatus, earnedAt: string }> } };

export type ReinstateOrderMutationVariables = Exact<{
  orderId: Scalars['Int']['input'];
  idempotencyKey: InputMaybe<Scalars['String']['input']>;
}>;


export type ReinstateOrderMutation = { reinstateOrder: { orderId: number, reference: string, subscriptionId: string, processorSubscriptionId: string, status: OrderStatus, total: number, mailboxesToReactivate: number, replayed: boolean, charged: { amount: number, currency: string } } };

export type RenameWorkspaceMutationVariables = Exact<{
  workspaceId: Scalars['Int']['input'];
  input: WorkspaceNameInput;
}>;


export type RenameWorkspaceMutation = { renameWorkspace: { workspaceId: number, name: string, domainCount: number, createdAt: string } };

export type ReportDaysQueryVariables = Exact<{
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type ReportDaysQuery = { reportDays: { period: AnalyticsPeriod, from: string, to: string, domains: Array<{ domain: string, days: Array<{ day: string, messages: number, passed: number, passRate: number | null }> }> } };

export type ReportsQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type ReportsQuery = { reports: { hasMore: boolean, data: Array<{ id: number, kind: ReportKind, domain: string, orgName: string, reportId: string, begin: string, end: string, messages: number, passed: number, passRate: number | null, records: number, receivedVia: string, receivedAt: string, authenticated: boolean }> } };

export type RequestPlanMutationVariables = Exact<{
  input: PlanRequestInput;
}>;


export type RequestPlanMutation = { requestPlan: { requested: boolean, detail: string } };

export type RequestsQueryVariables = Exact<{ [key: string]: never; }>;


export type RequestsQuery = { requests: Array<{ requestId: number, subscriptionId: string, kind: RequestKind, summary: string, forwardTo: string | null, status: ChangeRequestStatus, createdAt: string, replies: Array<{ author: string, body: string, createdAt: string }> }> };

export type ResendWebhookDeliveryMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  deliveryId: Scalars['Int']['input'];
}>;


export type ResendWebhookDeliveryMutation = { resendWebhookDelivery: { deliveryId: number, eventId: string, status: WebhookDeliveryStatus } };

export type ResetMailboxPasswordMutationVariables = Exact<{
  email: Scalars['String']['input'];
}>;


export type ResetMailboxPasswordMutation = { resetMailboxPassword: { email: string, firstName: string, lastName: string, status: MailboxStatus, username: string, password: string | null, imapHost: string, imapPort: number, smtpHost: string, smtpPort: number } };

export type RevealMailboxCredentialsMutationVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type RevealMailboxCredentialsMutation = { revealMailboxCredentials: { domain: string, mailboxes: Array<{ email: string, firstName: string, lastName: string, status: MailboxStatus, username: string, password: string | null, imapHost: string, imapPort: number, smtpHost: string, smtpPort: number }> } };

export type RevertDomainSetupApplyMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  applyId: Scalars['Int']['input'];
  dryRun: Scalars['Boolean']['input'];
}>;


export type RevertDomainSetupApplyMutation = { revertDomainSetupApply: { applyId: number, domain: string, connectionId: number, dryRun: boolean, revertApplyId: number | null, revertedAt: string | null, buildState: BuildState | null, ready: boolean | null, changes: Array<{ name: string, type: string, before: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, after: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, replaced: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, added: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> } };

export type SegmentEspQueryVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type SegmentEspQuery = { segmentEsp:
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, counts: { google: number, microsoft: number, securityGateway: number, other: number, unresolved: number }, segments: { google: Array<string>, microsoft: Array<string>, securityGateway: Array<string>, other: Array<string>, unresolved: Array<string> }, results: Array<{ domain: string, domainUnicode: string | null, segment: EspSegment, provider: string | null, gateway: string | null, providerBehindGateway: GatewayProvider | null, mxHosts: Array<string>, reason: string | null }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type SendTestWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
}>;


export type SendTestWebhookMutation = { sendTestWebhook: { deliveryId: number, eventId: string, status: WebhookDeliveryStatus } };

export type SetAlertRecipientsMutationVariables = Exact<{
  input: AlertRecipientsInput;
}>;


export type SetAlertRecipientsMutation = { setAlertRecipients: { emails: Array<string>, maxEmails: number } };

export type SetAlertSettingsMutationVariables = Exact<{
  input: AlertSettingsInput;
}>;


export type SetAlertSettingsMutation = { setAlertSettings: { dmarcPassRateThreshold: number, dmarcPassRateThresholdSource: AlertSettingSource, dmarcPassRateThresholdDefault: number, dmarcMinMessages: number } };

export type SetDmarcRampSettingsMutationVariables = Exact<{
  autoAdvance: Scalars['Boolean']['input'];
}>;


export type SetDmarcRampSettingsMutation = { setDmarcRampSettings: { autoAdvance: boolean } };

export type SetMonitorsMutationVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  input: MonitorsInput;
}>;


export type SetMonitorsMutation = { setMonitors: { subscriptionId: string, sequencer: Sequencer | null, monitorReconnection: boolean, monitorDeliverability: boolean } };

export type SetSequencerMutationVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  input: SequencerInput;
}>;


export type SetSequencerMutation = { setSequencer: { subscriptionId: string, sequencer: Sequencer | null, monitorReconnection: boolean, monitorDeliverability: boolean } };

export type TlsReportDaysQueryVariables = Exact<{
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type TlsReportDaysQuery = { tlsReportDays: { period: AnalyticsPeriod, from: string, to: string, domains: Array<{ domain: string, days: Array<{ day: string, successfulSessions: number, failedSessions: number, successRate: number | null }> }> } };

export type UpdateWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  input: WebhookInput;
}>;


export type UpdateWebhookMutation = { updateWebhook: { webhookId: number, url: string, events: Array<string>, description: string | null, createdAt: string } };

export type UploadReportMutationVariables = Exact<{
  input: ReportUploadInput;
}>;


export type UploadReportMutation = { uploadReport: { stored: number, duplicates: number, files: Array<{ file: string, status: ReportFileStatus, kind: ReportKind | null, reportId: string | null, orgName: string | null, domain: string | null, id: number | null, messages: number | null, authenticated: boolean, code: string | null, detail: string | null }> } };

export type VerifyDomainMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  connectionId: InputMaybe<Scalars['Int']['input']>;
}>;


export type VerifyDomainMutation = { verifyDomain: { domain: string, verified: boolean, verifiedAt: string | null, detail: string, record: { name: string, type: string, value: string } } };

export type VerifyEmailQueryVariables = Exact<{
  emails: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type VerifyEmailQuery = { verifyEmail:
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null }
    | { status: CheckStatus, summary: string, catchAllNote: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extendedDnsError: { code: number, meaning: string, text: string | null } | null } | null, results: Array<{ email: string, valid: boolean | null, syntaxValid: boolean, reason: EmailReason, detail: string, domain: string | null, domainUnicode: string | null, implicitMx: boolean, nullMx: boolean, disposable: boolean, role: boolean, mx: Array<{ preference: number, exchange: string }>, mxIssues: Array<{ severity: Severity, code: string, message: string }> }>, counts: { valid: number, invalid: number, unknown: number, disposable: number, role: number } }
   };

export type WebhookDeliveriesQueryVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type WebhookDeliveriesQuery = { webhookDeliveriesConnection: { nodes: Array<{ deliveryId: number, eventId: string, eventType: string, status: WebhookDeliveryStatus, createdAt: string, deliveredAt: string | null, nextAttemptAt: string | null, attempts: Array<{ attempt: number, at: string, statusCode: number | null, error: string | null, durationMs: number }> }>, pageInfo: { hasNextPage: boolean } } };

export type WebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhooksQuery = { webhooks: Array<{ webhookId: number, url: string, events: Array<string>, description: string | null, createdAt: string }> };

export type WorkspacesQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspacesQuery = { workspaces: { unfiledDomainCount: number, workspaces: Array<{ workspaceId: number, name: string, domainCount: number, createdAt: string }> } };
