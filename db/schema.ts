import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { BuildState, ChangeRequestStatus, InvoiceStatus, OrderStatus, ReferralEarningStatus, WebhookDeliveryStatus } from './status-values.js';

/** Timestamps: Date out of both drivers, Date or ISO string in. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface AccountTable {
  id: Generated<number>;
  name: string;
  processor_customer_id: string | null;
  created_at: CreatedAt;
  /** Operator-set allowances; null means the service-wide default. */
  read_per_minute: number | null;
  change_per_minute: number | null;
  orders_per_hour: number | null;
  /** The account's DMARC pass-rate threshold (percent) for dmarc.failures; null means the default. */
  dmarc_alert_pass_rate: number | null;
  /** The account whose referral code this one signed up with (docs/ordering.md, "Referrals"); null for none. */
  referred_by_account_id: number | null;
  /** The account lets the DMARC ramp advance (and revert) its domains' policies on its own (docs/dmarc-ramp.md). */
  dmarc_ramp_auto: Generated<boolean>;
  /** The day the automatic ramp last ran for the account; null before its first run. */
  dmarc_ramp_run_on: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A person who signs in to the portal (docs/people.md). */
export interface UserTable {
  id: Generated<number>;
  account_id: number;
  /** Lower-cased. */
  email: string;
  /** argon2id, PHC string. */
  password_hash: string;
  role: 'owner' | 'member';
  created_at: CreatedAt;
}

export interface SessionTable {
  /** SHA-256 of the cookie's token, hex. */
  id: string;
  user_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** A one-use e-mailed link: a password reset or an invitation. */
export interface UserTokenTable {
  /** SHA-256 of the link's token, hex. */
  id: string;
  purpose: 'password_reset' | 'invitation' | 'sign_up';
  user_id: number | null;
  account_id: number | null;
  email: string | null;
  role: 'owner' | 'member' | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** Who sent an invitation; null once they are removed. */
  invited_by_user_id: number | null;
  /** A sign-up's account name, until its address is confirmed. */
  account_name: string | null;
  /** A sign-up's password (argon2id hash), until its address is confirmed. */
  password_hash: string | null;
  /** A sign-up's referrer (the account whose code it carried), until its address is confirmed. */
  referred_by_account_id: number | null;
}

export interface ApiKeyTable {
  id: Generated<number>;
  account_id: number;
  /** The first characters of the key, shown in listings so a person can tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** Comma-separated scopes: read, write, orders:place. */
  scopes: string;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
  /** Kept to the minute: written at most once a minute per key. */
  last_used_at: Timestamp | null;
  /** A person's label for the key; null for keys made before keys had names. */
  name: string | null;
  /** The person who made the key in the portal; null for the operator's keys. */
  created_by_user_id: number | null;
  /** After this the key is refused as a revoked one is; null: it does not expire. */
  expires_at: Timestamp | null;
  /** The key a roll made to replace this one (which then expires after its grace period). */
  rolled_to_key_id: number | null;
}

export interface PlanTable {
  id: Generated<number>;
  account_id: number;
  sku: string;
  product: string;
  description: string;
  unit_amount: number;
  currency: string;
  interval: string;
  mailboxes_per_unit: number;
  orderable: boolean;
  why_not: string | null;
  processor_price_id: string | null;
  price_updated_at: Generated<Date>;
}

export interface WorkspaceTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: CreatedAt;
}

export interface OrderTable {
  id: Generated<number>;
  account_id: number;
  plan_id: number;
  reference: string;
  subscription_id: string;
  status: OrderStatus;
  quantity: number;
  unit_amount: number;
  currency: string;
  interval: string;
  sequencer: string | null;
  monitor_reconnection: Generated<boolean>;
  monitor_deliverability: Generated<boolean>;
  processor_subscription_id: string | null;
  created_at: CreatedAt;
  /** What the first invoice came to (promotion code applied), minor units; null on orders made before ordering existed. */
  first_invoice: number | null;
  promotion_code_id: number | null;
  /** `created` (Unix seconds) of the newest processor event applied to this order. */
  processor_event_created: ColumnType<string | null, number | null, number | null>;
  /** When the processor ended the subscription (its event's time): the grace period to reinstate counts from it; null unless cancelled. */
  cancelled_at: Timestamp | null;
  /** When the customer last reinstated the order on a new subscription; null if never. */
  reinstated_at: Timestamp | null;
}

export interface DomainTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  workspace_id: number | null;
  domain: string;
  build_state: BuildState;
  forward_to: string | null;
  /** When deliverability monitoring started; null means not yet watched (analytics are null, never 0). */
  watched_since: Timestamp | null;
  /** Mailboxes on this domain, kept by triggers on mailboxes (migration 2026_11_26_1500). */
  mailbox_count: Generated<number>;
  created_at: CreatedAt;
  /** Why the domain needs attention (a sentence), or the operator's reason for a state set by hand. */
  build_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of {code, message}: what our own DNS checks found at the last build; null before one. */
  build_problems: ColumnType<string | null, string | null | undefined, string | null>;
  built_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_monitored_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The monitoring period a run was last queued for, so each sweep queues a domain once per period. */
  monitor_queued_slot: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the provisioning adapter said the domain's mailboxes exist; `live` waits for it. */
  mailboxes_created_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The setup's last check by the jobs or a caller (resolvers/domains/setup). */
  setup_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When the jobs check the setup next; null when nothing is due. */
  setup_next_check_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Checks in a row that found the setup not ready: the re-check backoff's step. */
  setup_checks: Generated<number>;
  /** The reconnection monitor's last look at the domain's mailboxes at the provider. */
  mailboxes_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A domain's DKIM key pair; the private key sealed with SECRETS_KEY (resolvers/secrets/encrypt-secret.ts, bound to the domain row). */
export interface DomainDkimKeyTable {
  domain_id: number;
  selector: string;
  /** Base64 of the DER SubjectPublicKeyInfo: the p= of the DKIM record. */
  public_key: string;
  private_key_sealed: string;
  created_at: CreatedAt;
}

export interface MailboxTable {
  id: Generated<number>;
  domain_id: number;
  first_name: string;
  last_name: string;
  local_part: string;
  /** pending (not yet created at the provider), active, suspended (resolvers/mailboxes). */
  status: ColumnType<string, string | undefined, string>;
  /** The mailbox's password sealed with SECRETS_KEY (purpose mailbox:<id>); null until the build or a reset makes one. */
  password_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  status_changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A mailbox that stopped being active at the provider, and when it was active again (the reconnection monitor). */
export interface MailboxDisconnectionTable {
  id: Generated<number>;
  mailbox_id: number;
  /** What the provider reported instead of active: suspended or pending. */
  status: string;
  disconnected_at: CreatedAt;
  reconnected_at: Timestamp | null;
}

export interface ChangeRequestTable {
  id: Generated<number>;
  account_id: number;
  order_id: number;
  kind: string;
  summary: string;
  forward_to: string | null;
  status: ChangeRequestStatus;
  created_at: CreatedAt;
}

export interface RequestReplyTable {
  id: Generated<number>;
  request_id: number;
  author: string;
  body: string;
  created_at: CreatedAt;
}

export interface InvoiceTable {
  id: Generated<number>;
  account_id: number;
  order_id: number | null;
  number: string;
  status: InvoiceStatus;
  amount_due: number;
  amount_paid: number;
  currency: string;
  issued_at: Timestamp;
  due_at: Timestamp;
  paid_at: Timestamp | null;
  processor_invoice_id: string | null;
  processor_event_created: ColumnType<string | null, number | null | undefined, number | null>;
  processor_subscription_id: ColumnType<string | null, string | null | undefined, string | null>;
  hosted_invoice_url: ColumnType<string | null, string | null | undefined, string | null>;
  payment_claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_payment_error: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PaymentMethodTable {
  account_id: number;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  processor_ref: string | null;
  created_at: CreatedAt;
}

export interface ReferralTable {
  account_id: number;
  code: string;
  payout_destination: string | null;
  created_at: CreatedAt;
}

export interface ReferralEarningTable {
  id: Generated<number>;
  account_id: number;
  referred_account: string;
  amount: number;
  currency: string;
  status: ReferralEarningStatus;
  earned_at: Timestamp;
  /** The referred account; one earning each (its first paid invoice). Null for the demo's made-up earnings. */
  referred_account_id: number | null;
  /** The invoice that earned it. */
  invoice_id: number | null;
}

export interface DomainAnalyticsTable {
  domain_id: number;
  /** A calendar day, 'YYYY-MM-DD'. */
  day: ColumnType<string, string, string>;
  sent: number;
  delivered: number;
  bounced: number;
  replied: number;
  inbox_placed: number;
  spam_placed: number;
}

export interface IdempotencyRecordTable {
  account_id: number;
  key: string;
  request_hash: string;
  /** in_progress while a placement runs, done once its answer is stored. */
  state: string;
  order_id: number | null;
  response: string | null;
  created_at: CreatedAt;
  locked_until: Timestamp | null;
}

export interface RateLimitTable {
  key: string;
  points: number;
  expire: ColumnType<string | null, number | null, number | null>;
}

/** A domain held by one placement (by its Idempotency-Key) from before the charge until its order is recorded. */
/** The token an account publishes to prove a domain is its own (issue 12 item 6). */
export interface DomainVerificationTokenTable {
  account_id: number;
  token: string;
  created_at: CreatedAt;
}

/** A domain seen carrying the account's token: it stays verified for that account. */
export interface VerifiedDomainTable {
  account_id: number;
  domain: string;
  verified_at: CreatedAt;
}

export interface DomainReservationTable {
  domain: string;
  account_id: number;
  idempotency_key: string;
  expires_at: Timestamp;
}

/** A redemption held by one placement (by its Idempotency-Key) from before the charge. */
export interface PromotionRedemptionTable {
  promotion_code_id: number;
  account_id: number;
  idempotency_key: string;
  created_at: CreatedAt;
}

export interface PromotionCodeTable {
  id: Generated<number>;
  account_id: number;
  /** Stored upper-case; matched case-insensitively. */
  code: string;
  /** The only plan the code applies to; null for any plan of the account. */
  plan_id: number | null;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  /** once, repeating or forever (Stripe's coupon durations). */
  duration: string;
  duration_in_months: number | null;
  expires_at: Timestamp | null;
  max_redemptions: number | null;
  times_redeemed: Generated<number>;
  /** Stripe's promotion code id (promo_...) when Stripe serves; null to look the code up by name. */
  processor_ref: string | null;
  created_at: CreatedAt;
}

export interface OrderPreviewTable {
  account_id: number;
  order_hash: string;
  plan_id: number;
  unit_amount: number;
  currency: string;
  interval: string;
  mailboxes_per_unit: number;
  previewed_at: Timestamp;
}

export interface SandboxSetupTokenTable {
  token: string;
  customer_id: string;
  success_url: string;
  cancel_url: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SandboxCardTable {
  customer_id: string;
  payment_method_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  outcome: string;
  saved_at: Timestamp;
}

export interface SandboxSubscriptionTable {
  subscription_id: string;
  customer_id: string;
  idempotency_key: string;
  price_ref: string;
  quantity: number;
  status: string;
  invoice_id: string;
  amount_paid: number;
  currency: string;
  payment_method_id: string;
  /** JSON object of strings. */
  metadata: string;
  created_at: Timestamp;
}

/** The in-process queue on embedded PGlite (jobs/in-process-runner.ts). */
export interface JobQueueTable {
  id: Generated<number>;
  task: string;
  payload: string;
  job_key: string | null;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  last_error: string | null;
  locked_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface MonitorRunTable {
  domain_id: number;
  /** The monitoring period the run belongs to (MONITOR_INTERVAL_MS slots), so a retry records nothing twice. */
  slot: string;
  ran_at: CreatedAt;
  grade: string | null;
  /** JSON array of list names the domain or its mail hosts were listed on. */
  listed_on: string;
  /** JSON object {spf, dkim, dmarc}: each pass, warn, fail or error. */
  auth: string;
  dns_questions: number;
}

export interface EventTable {
  id: string;
  account_id: number;
  type: string;
  /** JSON object: the event's data as webhooks deliver it. */
  data: string;
  created_at: CreatedAt;
  fanned_out_at: Timestamp | null;
}

export interface WebhookEndpointTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  secret: string;
  /** Comma-separated event types, or "*". */
  events: string;
  description: string | null;
  created_at: CreatedAt;
  deleted_at: Timestamp | null;
}

export interface DnsConnectionTable {
  id: Generated<number>;
  account_id: number;
  /** rfc2136 or cloudflare. */
  kind: string;
  label: string | null;
  /** What may be shown again, as JSON text: server, port, key_name, algorithm for rfc2136; nothing for cloudflare. */
  settings: string;
  /** The TSIG secret or API token, sealed with encryptSecret under SECRETS_KEY. */
  secret_sealed: string;
  created_at: CreatedAt;
  deleted_at: Timestamp | null;
}

/** One publish (kind apply) or its undoing (kind revert) at a DNS provider: the journal of docs/domain-publishing.md. */
export interface SetupApplyTable {
  id: Generated<number>;
  account_id: number;
  domain: string;
  connection_id: number;
  kind: 'apply' | 'revert';
  /** For a revert: the apply it undid. */
  reverts_apply_id: number | null;
  /** JSON text: each RRset touched, [{ name, type, before: [...], after: [...] }], records as DnsRecord. */
  rrsets: string;
  applied_at: CreatedAt;
  reverted_at: Timestamp | null;
}

/** One step of a domain's DMARC ramp, taken or undone (docs/dmarc-ramp.md). */
export interface DmarcRampStepTable {
  id: Generated<number>;
  account_id: number;
  domain: string;
  kind: 'advanced' | 'reverted';
  from_step: string;
  to_step: string;
  /** The DMARC record as read before the write, and as written. */
  record_before: string;
  record_after: string;
  /** The journal entry (setup_applies) of the publish, or of the revert. */
  apply_id: number;
  /** For kind reverted: the advance it undid. */
  reverts_step_id: number | null;
  /** Taken by the job under the account's setting, not by a caller. */
  automatic: Generated<boolean>;
  /** The DMARC pass rate (percent) the decision was made on; null when there were no messages. */
  pass_rate: number | null;
  /** Why, in a sentence. */
  reason: string;
  at: CreatedAt;
}

/** A received DMARC aggregate (kind dmarc) or TLS-RPT (kind tls) report, stored once per (kind, org_name, report_id). */
export interface ReportTable {
  id: Generated<number>;
  kind: 'dmarc' | 'tls';
  account_id: number;
  domain_id: number;
  domain: string;
  org_name: string;
  org_email: string | null;
  report_id: string;
  /** DMARC: 1.0 (RFC 7489) or 2.0 (RFC 9990); null for TLS-RPT. */
  schema_version: string | null;
  begin_at: ColumnType<Date, Date, Date>;
  end_at: ColumnType<Date, Date, Date>;
  /** DMARC: the published policy as JSON text ({p, sp, adkim, aspf, pct}); null for TLS-RPT. */
  policy: string | null;
  /** DMARC: messages reported and those that passed DMARC; TLS-RPT: sessions and successful sessions. */
  messages: ColumnType<string, number, number>;
  messages_passed: ColumnType<string, number, number>;
  records: number;
  skipped_records: number;
  /** smtp or upload. */
  received_via: string;
  received_at: CreatedAt;
  /** DKIM-signed by the reporting organisation (SMTP), or uploaded by the domain's account: only these count (docs/reports.md). */
  authenticated: Generated<boolean>;
}

export interface DmarcReportRowTable {
  report_id: number;
  domain_id: number;
  day: ColumnType<string, string, string>;
  source_ip: string;
  messages: number;
  disposition: string;
  dkim_aligned: boolean;
  spf_aligned: boolean;
  dmarc_pass: boolean;
  header_from: string | null;
  envelope_from: string | null;
  dkim_result: string | null;
  dkim_domain: string | null;
  dkim_selector: string | null;
  spf_result: string | null;
  spf_domain: string | null;
  /** Comma-separated reason types (forwarded, mailing_list, ...), or null. */
  reasons: string | null;
  /** The report's flag, copied so the figures filter without a join. */
  authenticated: Generated<boolean>;
}

export interface TlsReportPolicyTable {
  report_id: number;
  domain_id: number;
  day: ColumnType<string, string, string>;
  policy_type: string;
  policy_domain: string;
  mx_host: string | null;
  successful_sessions: ColumnType<string, number, number>;
  failed_sessions: ColumnType<string, number, number>;
  /** JSON array of {result_type, sending_mta_ip, receiving_mx_hostname, failed_sessions}. */
  failures: string;
  /** The report's flag, copied so the figures filter without a join. */
  authenticated: Generated<boolean>;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  /** pending, delivered or failed (gave up after a day). */
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  created_at: CreatedAt;
  delivered_at: Timestamp | null;
}

export interface WebhookAttemptTable {
  delivery_id: number;
  attempt: number;
  at: CreatedAt;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** Null while the POST is under way (the attempt is claimed before it is sent). */
  finished_at: Date | null;
  account_id: number | null;
}

export interface AlertRecipientTable {
  account_id: number;
  email: string;
}

/** A running job worker's heartbeat (PostgreSQL): worker_id is graphile-worker's pool id, as in its jobs' locked_by. */
export interface WorkerHeartbeatTable {
  worker_id: string;
  /** Which process: host name and pid. */
  instance: string;
  started_at: CreatedAt;
  last_seen: Generated<Timestamp>;
}

/** The last background probe of one blocklist's RFC 5782 test points (jobs/probe-dnsbl-liveness.ts). */
export interface DnsblLivenessTable {
  list_id: string;
  /** The zone as shown (a DQS zone without its key). */
  zone: string;
  /** The first 16 hex digits of the SHA-256 of the zone asked, key included: a row of another zone is not this one's. */
  zone_digest: string;
  /** true: it passed its test points; false: it failed them; null: a test point gave no usable answer. */
  alive: boolean | null;
  reason: string | null;
  probed_at: Timestamp;
}

export interface AlertEmailTable {
  event_id: string;
  email: string;
  sent_at: CreatedAt;
  transport: string;
}

/** A report source address's PTR name as last resolved (docs/reports.md); null when it has none. */
export interface SourcePtrNameTable {
  source_ip: string;
  ptr: string | null;
  resolved_at: Timestamp;
}

/** One record of the authorization server (oidc-provider): a client, grant, session, interaction, code or token (db/oauth-records.ts). */
export interface OAuthRecordTable {
  /** oidc-provider's model name: Client, Grant, Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, ... */
  model: string;
  /** The record's id; for codes and tokens the SHA-256 (hex) of the token, which is never stored. */
  id: string;
  /** The record as JSON text (for codes and tokens without the token itself). */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** The client a grant, code or token belongs to. */
  client_id: string | null;
  /** The person a grant, code, token or session is for; their removal deletes the row. */
  user_id: number | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
  /** A grant's last use on /mcp, kept to the minute. */
  last_used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** The authorization server's own keys, made once and shared by every instance (sealed with SECRETS_KEY). */
export interface OAuthKeyTable {
  /** `jwks` (token signing keys) or `cookies` (cookie signing keys). */
  kind: string;
  value: string;
  created_at: CreatedAt;
}

/** One known value sealed with SECRETS_KEY (one row, id 1): the start checks the key opens it (resolvers/secrets/secrets-canary.ts). */
export interface SecretsCanaryTable {
  id: number;
  sealed: string;
  created_at: CreatedAt;
}

export interface AcmeAccountTable {
  directory_url: string;
  account_key_sealed: string;
  account_url: string | null;
  created_at: CreatedAt;
}

export interface ForwardingCertificateTable {
  domain: string;
  certificate_pem: string | null;
  private_key_sealed: string | null;
  not_before: Date | null;
  not_after: Date | null;
  issued_at: Date | null;
  failed_attempts: Generated<number>;
  last_error: string | null;
  retry_at: Date | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AcmeChallengeTable {
  token: string;
  domain: string;
  key_authorization: string;
  created_at: CreatedAt;
}

export interface Database {
  accounts: AccountTable;
  source_ptr_names: SourcePtrNameTable;
  api_keys: ApiKeyTable;
  users: UserTable;
  sessions: SessionTable;
  user_tokens: UserTokenTable;
  plans: PlanTable;
  workspaces: WorkspaceTable;
  orders: OrderTable;
  domains: DomainTable;
  mailboxes: MailboxTable;
  mailbox_disconnections: MailboxDisconnectionTable;
  domain_dkim_keys: DomainDkimKeyTable;
  change_requests: ChangeRequestTable;
  request_replies: RequestReplyTable;
  invoices: InvoiceTable;
  payment_methods: PaymentMethodTable;
  referrals: ReferralTable;
  referral_earnings: ReferralEarningTable;
  domain_analytics: DomainAnalyticsTable;
  idempotency_records: IdempotencyRecordTable;
  rate_limits: RateLimitTable;
  promotion_codes: PromotionCodeTable;
  promotion_redemptions: PromotionRedemptionTable;
  domain_reservations: DomainReservationTable;
  order_previews: OrderPreviewTable;
  sandbox_setup_tokens: SandboxSetupTokenTable;
  sandbox_cards: SandboxCardTable;
  sandbox_subscriptions: SandboxSubscriptionTable;
  job_queue: JobQueueTable;
  monitor_runs: MonitorRunTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  alert_recipients: AlertRecipientTable;
  alert_emails: AlertEmailTable;
  domain_verification_tokens: DomainVerificationTokenTable;
  verified_domains: VerifiedDomainTable;
  worker_heartbeats: WorkerHeartbeatTable;
  dns_connections: DnsConnectionTable;
  setup_applies: SetupApplyTable;
  dmarc_ramp_steps: DmarcRampStepTable;
  dnsbl_liveness: DnsblLivenessTable;
  reports: ReportTable;
  dmarc_report_rows: DmarcReportRowTable;
  tls_report_policies: TlsReportPolicyTable;
  oauth_records: OAuthRecordTable;
  oauth_keys: OAuthKeyTable;
  secrets_canary: SecretsCanaryTable;
  acme_accounts: AcmeAccountTable;
  forwarding_certificates: ForwardingCertificateTable;
  acme_challenges: AcmeChallengeTable;
}

export type Account = Selectable<AccountTable>;
export type ApiKey = Selectable<ApiKeyTable>;
export type NewApiKey = Insertable<ApiKeyTable>;
export type Plan = Selectable<PlanTable>;
export type NewPlan = Insertable<PlanTable>;
export type Workspace = Selectable<WorkspaceTable>;
export type Order = Selectable<OrderTable>;
export type NewOrder = Insertable<OrderTable>;
export type OrderUpdate = Updateable<OrderTable>;
export type Domain = Selectable<DomainTable>;
export type NewDomain = Insertable<DomainTable>;
export type Mailbox = Selectable<MailboxTable>;
export type NewMailbox = Insertable<MailboxTable>;
export type ChangeRequest = Selectable<ChangeRequestTable>;
export type NewChangeRequest = Insertable<ChangeRequestTable>;
export type RequestReply = Selectable<RequestReplyTable>;
export type NewRequestReply = Insertable<RequestReplyTable>;
export type Invoice = Selectable<InvoiceTable>;
export type NewInvoice = Insertable<InvoiceTable>;
export type PaymentMethod = Selectable<PaymentMethodTable>;
export type Referral = Selectable<ReferralTable>;
export type NewReferral = Insertable<ReferralTable>;
export type ReferralEarning = Selectable<ReferralEarningTable>;
export type NewReferralEarning = Insertable<ReferralEarningTable>;
export type NewDomainAnalytics = Insertable<DomainAnalyticsTable>;
export type PromotionCode = Selectable<PromotionCodeTable>;
export type NewPromotionCode = Insertable<PromotionCodeTable>;
export type DnsConnectionRow = Selectable<DnsConnectionTable>;
export type NewDnsConnection = Insertable<DnsConnectionTable>;
export type SetupApplyRow = Selectable<SetupApplyTable>;
export type NewSetupApply = Insertable<SetupApplyTable>;
export type DmarcRampStepRow = Selectable<DmarcRampStepTable>;
export type NewDmarcRampStep = Insertable<DmarcRampStepTable>;
export type DnsblLivenessRow = Selectable<DnsblLivenessTable>;
export type NewDnsblLiveness = Insertable<DnsblLivenessTable>;
export type ReportRow = Selectable<ReportTable>;
export type NewReport = Insertable<ReportTable>;
export type NewDmarcReportRow = Insertable<DmarcReportRowTable>;
export type NewTlsReportPolicy = Insertable<TlsReportPolicyTable>;
