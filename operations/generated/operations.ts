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
  /** Any of order.placed, domain.live, domain.needs_attention, domain.listed, domain.delisted, monitor.changed, invoice.past_due, webhook.test, invoice.paid, mailbox.disconnected, mailbox.reconnected, mailbox.credentials_revealed, mailbox.password_reset, mailbox.suspended, dmarc.failures, tls.failures; omitted or "*": all. */
  events: InputMaybe<Array<Scalars['String']['input']>>;
  /** An https:// address on the public internet. */
  url: InputMaybe<Scalars['String']['input']>;
};

export type WorkspaceNameInput = {
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
};

export type AlertRecipientsQueryVariables = Exact<{ [key: string]: never; }>;


export type AlertRecipientsQuery = { alertRecipients: { emails: Array<string>, max_emails: number } };

export type AlertSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type AlertSettingsQuery = { alertSettings: { dmarc_pass_rate_threshold: number, dmarc_pass_rate_threshold_source: AlertSettingSource, dmarc_pass_rate_threshold_default: number, dmarc_min_messages: number } };

export type AnalyticsQueryVariables = Exact<{
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type AnalyticsQuery = { analytics: { period: AnalyticsPeriod, from: string, to: string, domains: Array<{ domain: string, watched: boolean, sent: number | null, delivered: number | null, bounced: number | null, replied: number | null, bounce_rate: number | null, reply_rate: number | null, inbox_rate: number | null, spam_rate: number | null, reported_messages: number | null, dmarc_pass_rate: number | null, failing_sources: number | null, tls_sessions: number | null, tls_failure_rate: number | null }> } };

export type ApplyDomainSetupMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  connectionId: Scalars['Int']['input'];
  dryRun: Scalars['Boolean']['input'];
}>;


export type ApplyDomainSetupMutation = { applyDomainSetup: { domain: string, ready: boolean, connection_id: number, dry_run: boolean, build_state: BuildState, apply_id: number | null, caches_may_hold_until: string | null, cache_note: string | null, changes: Array<{ action: DnsChangeAction, record: { type: string, name: string, value: string, ttl: number, priority: number | null }, replaces: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> } };

export type InvoiceFieldsFragment = { number: string, status: InvoiceStatus, currency: string, domains: Array<string>, amount_due: number, amount_paid: number, issued_at: string, due_at: string, paid_at: string | null, order_reference: string | null, past_due: boolean, amount_remaining: number, hosted_invoice_url: string | null, last_payment_error: string | null, lines: Array<{ description: string, quantity: number, amount: number, unit_amount: number }> };

export type BillingQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type BillingQuery = { billing: { currency: string, month_to_date_spend: number, past_due_amount: number, past_due_invoices: Array<{ number: string, status: InvoiceStatus, currency: string, domains: Array<string>, amount_due: number, amount_paid: number, issued_at: string, due_at: string, paid_at: string | null, order_reference: string | null, past_due: boolean, amount_remaining: number, hosted_invoice_url: string | null, last_payment_error: string | null, lines: Array<{ description: string, quantity: number, amount: number, unit_amount: number }> }>, next_charge: { amount: number, currency: string, date: string } | null, page: { invoices: Array<{ number: string, status: InvoiceStatus, currency: string, domains: Array<string>, amount_due: number, amount_paid: number, issued_at: string, due_at: string, paid_at: string | null, order_reference: string | null, past_due: boolean, amount_remaining: number, hosted_invoice_url: string | null, last_payment_error: string | null, lines: Array<{ description: string, quantity: number, amount: number, unit_amount: number }> }>, pageInfo: { has_more: boolean } } } };

export type CardSetupLinkMutationVariables = Exact<{
  input: CardSetupLinkInput;
}>;


export type CardSetupLinkMutation = { createCardSetupLink: { url: string, expires_at: string } };

export type CatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type CatalogueQuery = { plans: Array<{ sku: string, product: string, description: string, currency: string, interval: string, orderable: boolean, unit_amount: number, mailboxes_per_unit: number, why_not: string | null }> };

export type CheckBimiQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  selector: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckBimiQuery = { checkBimi:
    | { status: CheckStatus, summary: string, domain: string, selector: string, record: string | null, valid: boolean, declined: boolean, domain_unicode: string | null, record_domain: string | null, logo_url: string | null, authority_url: string | null, dmarc_enforced: boolean | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, dmarc_detail: { policy: DmarcPolicy | null, pct: number | null, changes: Array<string>, domain_record: string | null, organizational_domain: string, organizational_record: string | null, subdomain_policy: DmarcPolicy | null }, logo: { fetched: boolean, problems: Array<string>, size_bytes: number | null, svg_tiny_ps_valid: boolean | null } | null, certificate: { fetched: boolean, subject: string | null, issuer: string | null, expired: boolean | null, names: Array<string>, problems: Array<string>, valid_from: string | null, valid_to: string | null, covers_domain: boolean | null, mark_type: MarkType | null, logo_embedded: boolean, logo_matches: boolean | null, chain_trusted: boolean | null, trust_anchor: string | null } | null }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckBlacklistQueryVariables = Exact<{
  input: Scalars['String']['input'];
}>;


export type CheckBlacklistQuery = { checkBlacklist:
    | { status: CheckStatus, summary: string, input: string, domain: string | null, input_kind: BlacklistInputKind, domain_unicode: string | null, listed_count: number, checked_count: number, unanswered_count: number, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, checked: { description: string, domain: string | null, addresses: Array<string>, mail_hosts: Array<string>, domain_lists: number, ip_lists: number }, lists: Array<{ list: string, zone: string, target: string, kind: DnsblKind, listed: boolean | null, reason: string | null, alive: boolean | null, list_id: string, removal_url: string, codes: Array<{ code: string, meaning: string }> }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckCnameQueryVariables = Exact<{
  host: Scalars['String']['input'];
  expected: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckCnameQuery = { checkCname:
    | { status: CheckStatus, summary: string, host: string, expected: string | null, host_unicode: string | null, matches_expected: boolean | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, chain: Array<{ name: string, target: string, ttl: number }>, final: { name: string, addresses: Array<string> } }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDeliverabilityQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDeliverabilityQuery = { checkDeliverability:
    | { status: CheckStatus, summary: string, domain: string, grade: Grade | null, score: number | null, domain_unicode: string | null, unchecked_weight: number, not_scored: Array<GradePart>, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, breakdown: { spf: { score: number | null, weight: number, points: number | null, status: CheckStatus, detail: string, cap: Grade | null, effective_weight: number | null }, dkim: { score: number | null, weight: number, points: number | null, status: CheckStatus, detail: string, cap: Grade | null, effective_weight: number | null }, dmarc: { score: number | null, weight: number, points: number | null, status: CheckStatus, detail: string, cap: Grade | null, effective_weight: number | null }, mx: { score: number | null, weight: number, points: number | null, status: CheckStatus, detail: string, cap: Grade | null, effective_weight: number | null }, blacklists: { score: number | null, weight: number, points: number | null, status: CheckStatus, detail: string, cap: Grade | null, effective_weight: number | null }, domain_age: { score: number | null, weight: number, points: number | null, status: CheckStatus, detail: string, cap: Grade | null, effective_weight: number | null } }, caps: Array<{ part: CapPart, grade: Grade, code: string, reason: string }>, fixes: Array<{ part: GradePart, code: string, points: number, fix: string, caps_grade_at: Grade | null }>, checks: { spf: { check: string, status: CheckStatus, summary: string }, dkim: { check: string, status: CheckStatus, summary: string }, dmarc: { check: string, status: CheckStatus, summary: string }, mx: { check: string, status: CheckStatus, summary: string }, blacklists: { check: string, status: CheckStatus, summary: string }, domain_age: { check: string, status: CheckStatus, summary: string } } }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDkimQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  selector: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDkimQuery = { checkDkim:
    | { status: CheckStatus, summary: string, domain: string, selector: string | null, wildcard: boolean | null, domain_unicode: string | null, selectors_checked: Array<string>, domainkey_exists: boolean | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, keys: Array<{ selector: string, record: string, valid: boolean, testing: boolean, key_type: DkimKeyType | null, key_bits: number | null, hash_algorithms: Array<string>, service_types: Array<string>, findings: Array<{ severity: Severity, code: string, message: string }> }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDmarcQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDmarcQuery = { checkDmarc:
    | { status: CheckStatus, summary: string, domain: string, record: string | null, valid: boolean, source: string | null, inherited: boolean, policy: DmarcPolicy | null, pct: number | null, adkim: DmarcAlignment | null, aspf: DmarcAlignment | null, rua: Array<string>, ruf: Array<string>, fo: Array<string> | null, ri: number | null, np: DmarcPolicy | null, t: DmarcTesting | null, psd: DmarcPsd | null, domain_unicode: string | null, organizational_domain: string | null, subdomain_policy: DmarcPolicy | null, effective_policy: DmarcPolicy | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, tags: Array<{ tag: string, value: string, meaning: string }>, report_destinations: Array<{ tag: DmarcReportTag, uri: string, destination: string | null, external: boolean, authorized: boolean | null, problem: DmarcReportProblem | null, authorization_record: string | null }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDnsQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  type: InputMaybe<DnsType>;
}>;


export type CheckDnsQuery = { checkDns:
    | { status: CheckStatus, summary: string, domain: string, type: DnsType, outcome: DnsOutcome, domain_unicode: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, records: Array<
        | { address: string, ttl: number }
        | { flags: number, tag: string, value: string, ttl: number }
        | { preference: number, exchange: string, ttl: number }
        | { target: string, ttl: number }
        | { mname: string, rname: string, serial: number, refresh: number, retry: number, expire: number, minimum: number, ttl: number }
        | { value: string, strings: Array<string>, ttl: number }
      > }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDomainExpiryQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDomainExpiryQuery = { checkDomainExpiry:
    | { status: CheckStatus, summary: string, domain: string, registered: boolean | null, registrar: string | null, created: string | null, expires: string | null, source: RegistrationSource | null, server: string | null, domain_unicode: string | null, registered_domain: string, days_remaining: number | null, age_days: number | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckDomainSetupMutationVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckDomainSetupMutation = { checkDomainSetup: { domain: string, ready: boolean, reason: string | null, build_state: BuildState, checked_at: string, read_from: string, caches_may_hold_until: string | null, cache_note: string | null, records: Array<{ purpose: SetupRecordPurpose, type: SetupRecordType, name: string, value: string, ttl: number, priority: number | null, required: boolean, status: SetupRecordStatus, found: Array<string>, detail: string }> } };

export type CheckMtaStsQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckMtaStsQuery = { checkMtaSts:
    | { status: CheckStatus, summary: string, domain: string, record: string | null, domain_unicode: string | null, record_id: string | null, policy_url: string, policy_error: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, policy: { version: string, mode: MtaStsMode, mx: Array<string>, max_age: number } | null, mx_hosts: Array<{ host: string, matches_policy: boolean | null }>, tls_rpt: { record: string, rua: Array<string>, valid: boolean } | null }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckNameserversQueryVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type CheckNameserversQuery = { checkNameservers:
    | { status: CheckStatus, summary: string, provider_counts: Record<string, number>, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, results: Array<{ domain: string, zone: string | null, outcome: NameserverOutcome, nameservers: Array<string>, provider: string | null, reason: string | null, dnssec: DnssecStatus | null, domain_unicode: string | null, providers: Array<{ id: string, name: string, nameservers: Array<string> }>, delegation: { parent_zone: string, parent_nameservers: Array<string> | null, parent_reason: string | null, child_nameservers: Array<string>, only_at_parent: Array<string>, only_at_child: Array<string>, serials_agree: boolean | null, servers: Array<{ nameserver: string, addresses: Array<string>, status: NameserverStatus, serial: number | null, reason: string | null }> } | null }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckProviderDomainQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type CheckProviderDomainQuery = { checkProviderDomain:
    | { status: CheckStatus, summary: string, domain: string, provider: TenancyProvider, attached: boolean | null, confidence: Confidence, note: string, domain_unicode: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, evidence: Array<{ kind: EvidenceKind, found: boolean | null, detail: string }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckSpfQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  ip: InputMaybe<Scalars['String']['input']>;
  sender: InputMaybe<Scalars['String']['input']>;
  helo: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckSpfQuery = { checkSpf:
    | { status: CheckStatus, summary: string, domain: string, record: string | null, valid: boolean, ip: string | null, sender: string | null, helo: string | null, result: SpfResult | null, explanation: string | null, domain_unicode: string | null, lookup_count: number, void_lookup_count: number, matched_mechanism: string | null, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, mechanisms: Array<{ term: string, qualifier: string | null, mechanism: string, value: string | null, lookups: number, evaluated: boolean, errors: Array<string>, children: unknown | null, void_lookup: boolean, past_limit: boolean }>, expansion_stopped: { reason: SpfStopReason, term: string, domain: string, depth: number, path: Array<string> } | null, divergence: Array<{ rule: string, receivers: Array<string>, detail: string, valid: boolean, result: SpfResult | null, void_lookup_count: number }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type CheckUriblQueryVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type CheckUriblQuery = { checkUribl:
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
    | { status: CheckStatus, summary: string, listed_count: number, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, results: Array<{ domain: string, queried: string | null, listed: boolean | null, reason: string | null, domain_unicode: string | null, lists: Array<{ list: string, zone: string, listed: boolean | null, reason: string | null, alive: boolean | null, list_id: string, removal_url: string, codes: Array<{ code: string, meaning: string }> }> }> }
   };

export type CreateDnsConnectionMutationVariables = Exact<{
  input: DnsConnectionInput;
}>;


export type CreateDnsConnectionMutation = { createDnsConnection: { kind: DnsConnectionKind, label: string | null, server: string | null, port: number | null, algorithm: TsigAlgorithm | null, connection_id: number, key_name: string | null, created_at: string } };

export type CreateWebhookMutationVariables = Exact<{
  input: WebhookInput;
}>;


export type CreateWebhookMutation = { createWebhook: { url: string, events: Array<string>, description: string | null, secret: string | null, webhook_id: number, created_at: string } };

export type CreateWorkspaceMutationVariables = Exact<{
  input: WorkspaceNameInput;
}>;


export type CreateWorkspaceMutation = { createWorkspace: { name: string, workspace_id: number, domain_count: number, created_at: string } };

export type DashboardQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type DashboardQuery = { dashboard: { account_id: number, account_name: string, order_count: number, domain_count: number, mailbox_count: number, page: { orders: Array<{ reference: string, sku: string, product: string, status: OrderStatus, order_id: number, subscription_id: string, created_at: string, domains: Array<{ domain: string, build_state: BuildState, mailbox_count: number, forward_to: string | null, workspace_id: number | null, workspace_name: string | null, build_reason: string | null, build_problems: Array<{ code: string, message: string }> }> }>, pageInfo: { has_more: boolean } } } };

export type DeleteDnsConnectionMutationVariables = Exact<{
  connectionId: Scalars['Int']['input'];
}>;


export type DeleteDnsConnectionMutation = { deleteDnsConnection: { deleted: boolean, connection_id: number } };

export type DeleteWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
}>;


export type DeleteWebhookMutation = { deleteWebhook: { deleted: boolean, webhook_id: number } };

export type DeleteWorkspaceMutationVariables = Exact<{
  workspaceId: Scalars['Int']['input'];
}>;


export type DeleteWorkspaceMutation = { deleteWorkspace: { deleted: boolean, workspace_id: number, unfiled_domain_count: number } };

export type DnsConnectionsQueryVariables = Exact<{ [key: string]: never; }>;


export type DnsConnectionsQuery = { dnsConnections: Array<{ kind: DnsConnectionKind, label: string | null, server: string | null, port: number | null, algorithm: TsigAlgorithm | null, connection_id: number, key_name: string | null, created_at: string }> };

export type DomainMailboxesQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DomainMailboxesQuery = { domainMailboxes: { domain: string, mailboxes: Array<{ email: string, status: MailboxStatus, first_name: string, last_name: string }> } };

export type DomainSetupAppliesQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type DomainSetupAppliesQuery = { page: { data: Array<{ kind: SetupApplyKind, apply_id: number, reverts_apply_id: number | null, applied_at: string, connection_id: number, reverted_at: string | null, changes: Array<{ name: string, type: string, before: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, after: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, replaced: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, added: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> }>, pageInfo: { has_more: boolean } } };

export type DomainSetupZoneQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DomainSetupZoneQuery = { domainSetupZone: string };

export type DomainSetupQueryVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type DomainSetupQuery = { domainSetup: { domain: string, ready: boolean, reason: string | null, build_state: BuildState, checked_at: string, read_from: string, caches_may_hold_until: string | null, cache_note: string | null, records: Array<{ purpose: SetupRecordPurpose, type: SetupRecordType, name: string, value: string, ttl: number, priority: number | null, required: boolean, status: SetupRecordStatus, found: Array<string>, detail: string }> } };

export type DomainSourcesQueryVariables = Exact<{
  domain: Scalars['String']['input'];
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type DomainSourcesQuery = { domainSources: { domain: string, period: AnalyticsPeriod, from: string, to: string, sources: Array<{ ptr: string | null, messages: number, passed: number, quarantined: number, rejected: number, reporters: number, source_ip: string, pass_rate: number, dkim_aligned: number, spf_aligned: number, first_day: string, last_day: string }> } };

export type DomainVerificationQueryVariables = Exact<{ [key: string]: never; }>;


export type DomainVerificationQuery = { domainVerification: { token: string, record: { type: string, value: string, name_template: string }, verified_domains: Array<{ domain: string, verified_at: string }> } };

export type EventsQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type EventsQuery = { events: { has_more: boolean, data: Array<{ id: string, type: string, created: string, data_json: string }> } };

export type FileDomainMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  input: FileDomainInput;
}>;


export type FileDomainMutation = { fileDomain: { domain: string, workspace_id: number | null, workspace_name: string | null } };

export type OrderExportQueryVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  format: InputMaybe<Scalars['String']['input']>;
}>;


export type OrderExportQuery = { orderExport: string };

export type OrdersQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type OrdersQuery = { page: { orders: Array<{ reference: string, sku: string, product: string, status: OrderStatus, quantity: number, currency: string, interval: string, sequencer: Sequencer | null, order_id: number, subscription_id: string, unit_amount: number, renewal_total: number, monitor_reconnection: boolean, monitor_deliverability: boolean, domain_count: number, mailbox_count: number, created_at: string }>, pageInfo: { has_more: boolean } } };

export type PayInvoicesMutationVariables = Exact<{
  input: PayInvoicesInput;
}>;


export type PayInvoicesMutation = { payInvoices: { currency: string, detail: string, paid_count: number, paid_amount: number, results: Array<{ number: string, amount: number, currency: string, outcome: string, message: string }> } };

export type PaymentMethodQueryVariables = Exact<{ [key: string]: never; }>;


export type PaymentMethodQuery = { paymentMethod: { brand: string | null, last4: string | null, on_file: boolean, exp_month: number | null, exp_year: number | null } };

export type PlaceOrderMutationVariables = Exact<{
  order: OrderInput;
  idempotencyKey: InputMaybe<Scalars['String']['input']>;
}>;


export type PlaceOrderMutation = { placeOrder: { reference: string, sku: string, status: OrderStatus, quantity: number, domains: number, mailboxes: number, total: number, replayed: boolean, order_id: number, subscription_id: string, charged: { amount: number, currency: string } } };

export type PreviewOrderQueryVariables = Exact<{
  order: OrderInput;
}>;


export type PreviewOrderQuery = { previewOrder: { ok: boolean, sku: string, product: string, domains: number, mailboxes: number, quantity: number, price: { currency: string, interval: string, total: number, unit_amount: number, mailboxes_per_unit: number, first_invoice: number }, discount: { code: string, duration: string, amount: number, description: string, percent_off: number | null, amount_off: number | null, duration_in_months: number | null, applies_to: string } | null, problems: Array<{ domain: string, index: number, issues: Array<{ severity: string, code: string, field: string, message: string }> }> } };

export type RaiseRequestMutationVariables = Exact<{
  input: RaiseRequestInput;
}>;


export type RaiseRequestMutation = { raiseRequest: { domains_repointed: number, request: { kind: RequestKind, summary: string, status: ChangeRequestStatus, request_id: number, subscription_id: string, forward_to: string | null, created_at: string, replies: Array<{ author: string, body: string, created_at: string }> } } };

export type ReferralsQueryVariables = Exact<{ [key: string]: never; }>;


export type ReferralsQuery = { referrals: { code: string | null, link: string | null, terms: string, currency: string, share_percent: number, payout_destination: string | null, earned_total: number, pending_total: number, paid_total: number, earnings: Array<{ amount: number, currency: string, status: ReferralEarningStatus, referred_account: string, earned_at: string }> } };

export type RenameWorkspaceMutationVariables = Exact<{
  workspaceId: Scalars['Int']['input'];
  input: WorkspaceNameInput;
}>;


export type RenameWorkspaceMutation = { renameWorkspace: { name: string, workspace_id: number, domain_count: number, created_at: string } };

export type ReportDaysQueryVariables = Exact<{
  period: InputMaybe<AnalyticsPeriod>;
}>;


export type ReportDaysQuery = { reportDays: { period: AnalyticsPeriod, from: string, to: string, domains: Array<{ domain: string, days: Array<{ day: string, messages: number, passed: number, pass_rate: number | null }> }> } };

export type ReportsQueryVariables = Exact<{
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type ReportsQuery = { reports: { has_more: boolean, data: Array<{ id: number, kind: ReportKind, domain: string, begin: string, end: string, messages: number, passed: number, records: number, authenticated: boolean, org_name: string, report_id: string, pass_rate: number | null, received_via: string, received_at: string }> } };

export type RequestPlanMutationVariables = Exact<{
  input: PlanRequestInput;
}>;


export type RequestPlanMutation = { requestPlan: { requested: boolean, detail: string } };

export type RequestsQueryVariables = Exact<{ [key: string]: never; }>;


export type RequestsQuery = { requests: Array<{ kind: RequestKind, summary: string, status: ChangeRequestStatus, request_id: number, subscription_id: string, forward_to: string | null, created_at: string, replies: Array<{ author: string, body: string, created_at: string }> }> };

export type ResendWebhookDeliveryMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  deliveryId: Scalars['Int']['input'];
}>;


export type ResendWebhookDeliveryMutation = { resendWebhookDelivery: { status: WebhookDeliveryStatus, delivery_id: number, event_id: string } };

export type ResetMailboxPasswordMutationVariables = Exact<{
  email: Scalars['String']['input'];
}>;


export type ResetMailboxPasswordMutation = { resetMailboxPassword: { email: string, status: MailboxStatus, username: string, password: string | null, first_name: string, last_name: string, imap_host: string, imap_port: number, smtp_host: string, smtp_port: number } };

export type RevealMailboxCredentialsMutationVariables = Exact<{
  domain: Scalars['String']['input'];
}>;


export type RevealMailboxCredentialsMutation = { revealMailboxCredentials: { domain: string, mailboxes: Array<{ email: string, status: MailboxStatus, username: string, password: string | null, first_name: string, last_name: string, imap_host: string, imap_port: number, smtp_host: string, smtp_port: number }> } };

export type RevertDomainSetupApplyMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  applyId: Scalars['Int']['input'];
  dryRun: Scalars['Boolean']['input'];
}>;


export type RevertDomainSetupApplyMutation = { revertDomainSetupApply: { domain: string, ready: boolean | null, apply_id: number, connection_id: number, dry_run: boolean, revert_apply_id: number | null, reverted_at: string | null, build_state: BuildState | null, changes: Array<{ name: string, type: string, before: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, after: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, replaced: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }>, added: Array<{ type: string, name: string, value: string, ttl: number, priority: number | null }> }> } };

export type SegmentEspQueryVariables = Exact<{
  domains: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type SegmentEspQuery = { segmentEsp:
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, counts: { google: number, microsoft: number, other: number, unresolved: number, security_gateway: number }, segments: { google: Array<string>, microsoft: Array<string>, other: Array<string>, unresolved: Array<string>, security_gateway: Array<string> }, results: Array<{ domain: string, segment: EspSegment, provider: string | null, gateway: string | null, reason: string | null, domain_unicode: string | null, provider_behind_gateway: GatewayProvider | null, mx_hosts: Array<string> }> }
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
   };

export type SendTestWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
}>;


export type SendTestWebhookMutation = { sendTestWebhook: { status: WebhookDeliveryStatus, delivery_id: number, event_id: string } };

export type SetAlertRecipientsMutationVariables = Exact<{
  input: AlertRecipientsInput;
}>;


export type SetAlertRecipientsMutation = { setAlertRecipients: { emails: Array<string>, max_emails: number } };

export type SetAlertSettingsMutationVariables = Exact<{
  input: AlertSettingsInput;
}>;


export type SetAlertSettingsMutation = { setAlertSettings: { dmarc_pass_rate_threshold: number, dmarc_pass_rate_threshold_source: AlertSettingSource, dmarc_pass_rate_threshold_default: number, dmarc_min_messages: number } };

export type SetMonitorsMutationVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  input: MonitorsInput;
}>;


export type SetMonitorsMutation = { setMonitors: { sequencer: Sequencer | null, subscription_id: string, reconnection: boolean, deliverability: boolean } };

export type SetSequencerMutationVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  input: SequencerInput;
}>;


export type SetSequencerMutation = { setSequencer: { sequencer: Sequencer | null, subscription_id: string, reconnection: boolean, deliverability: boolean } };

export type UpdateWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  input: WebhookInput;
}>;


export type UpdateWebhookMutation = { updateWebhook: { url: string, events: Array<string>, description: string | null, webhook_id: number, created_at: string } };

export type UploadReportMutationVariables = Exact<{
  input: ReportUploadInput;
}>;


export type UploadReportMutation = { uploadReport: { stored: number, duplicates: number, files: Array<{ file: string, status: ReportFileStatus, kind: ReportKind | null, domain: string | null, id: number | null, messages: number | null, authenticated: boolean, code: string | null, detail: string | null, report_id: string | null, org_name: string | null }> } };

export type VerifyDomainMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  connectionId: InputMaybe<Scalars['Int']['input']>;
}>;


export type VerifyDomainMutation = { verifyDomain: { domain: string, verified: boolean, detail: string, verified_at: string | null, record: { name: string, type: string, value: string } } };

export type VerifyEmailQueryVariables = Exact<{
  emails: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type VerifyEmailQuery = { verifyEmail:
    | { status: CheckStatus, summary: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null }
    | { status: CheckStatus, summary: string, catch_all_note: string, findings: Array<{ severity: Severity, code: string, message: string }>, dnssec: { status: DnssecStatus, reason: string, answers: number, validated: number, name: string | null, type: string | null, extended_dns_error: { code: number, meaning: string, text: string | null } | null } | null, results: Array<{ email: string, valid: boolean | null, reason: EmailReason, detail: string, domain: string | null, disposable: boolean, role: boolean, syntax_valid: boolean, domain_unicode: string | null, implicit_mx: boolean, null_mx: boolean, mx: Array<{ preference: number, exchange: string }>, mx_issues: Array<{ severity: Severity, code: string, message: string }> }>, counts: { valid: number, invalid: number, unknown: number, disposable: number, role: number } }
   };

export type WebhookDeliveriesQueryVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  limit: InputMaybe<Scalars['Int']['input']>;
  startingAfter: InputMaybe<Scalars['String']['input']>;
}>;


export type WebhookDeliveriesQuery = { page: { webhook_deliveries: Array<{ status: WebhookDeliveryStatus, delivery_id: number, event_id: string, event_type: string, created_at: string, delivered_at: string | null, next_attempt_at: string | null, attempts: Array<{ attempt: number, at: string, error: string | null, status_code: number | null, duration_ms: number }> }>, pageInfo: { has_more: boolean } } };

export type WebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhooksQuery = { webhooks: Array<{ url: string, events: Array<string>, description: string | null, webhook_id: number, created_at: string }> };

export type WorkspacesQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspacesQuery = { workspaces: { unfiled_domain_count: number, workspaces: Array<{ name: string, workspace_id: number, domain_count: number, created_at: string }> } };
