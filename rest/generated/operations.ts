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
  /** A JSON value; used for check answers, whose fields are documented in docs/checks.md. */
  JSON: { input: unknown; output: unknown; }
};

export type CardSetupLinkInput = {
  /** Required: the http(s) page to return to on cancel. */
  cancelUrl: InputMaybe<Scalars['String']['input']>;
  /** Required: the http(s) page to return to after saving the card. */
  successUrl: InputMaybe<Scalars['String']['input']>;
};

export type FileDomainInput = {
  /** The folder to file the domain in; null unfiles it. */
  workspaceId: InputMaybe<Scalars['Int']['input']>;
};

export type MonitorsInput = {
  /** Watch inbox placement and blacklists. */
  deliverability: InputMaybe<Scalars['Boolean']['input']>;
  /** Reconnect inboxes the sending tool drops. */
  reconnection: InputMaybe<Scalars['Boolean']['input']>;
};

export type OrderDomainInput = {
  /** A registered domain the caller owns. */
  domain: Scalars['String']['input'];
  /** The domain visitors of this one are forwarded to. */
  forwardTo: InputMaybe<Scalars['String']['input']>;
  mailboxes: Array<OrderMailboxInput>;
};

export type OrderInput = {
  domains: Array<OrderDomainInput>;
  promotionCode: InputMaybe<Scalars['String']['input']>;
  sku: Scalars['String']['input'];
};

export type OrderMailboxInput = {
  firstName: Scalars['String']['input'];
  lastName: Scalars['String']['input'];
  /** The part before the @. */
  localPart: Scalars['String']['input'];
};

export type RaiseRequestInput = {
  /** Kind forwarding only: the domain every domain of the order forwards to. */
  forwardTo: InputMaybe<Scalars['String']['input']>;
  /** One of forwarding, rename_mailbox, add_mailboxes, remove_mailboxes, remove_domain, dns_change, cancel_order, billing, other. */
  kind: Scalars['String']['input'];
  subscriptionId: Scalars['String']['input'];
  summary: Scalars['String']['input'];
};

export type SequencerInput = {
  /** One of instantly, smartlead, lemlist, apollo, reply, woodpecker, saleshandy, outreach, salesloft, hubspot, mailshake, quickmail, emelia, plusvibe, other, none. */
  sequencer: Scalars['String']['input'];
};

export type WebhookInput = {
  /** At most 200 characters. */
  description: InputMaybe<Scalars['String']['input']>;
  /** Any of order.placed, domain.live, domain.needs_attention, domain.listed, domain.delisted, monitor.changed, invoice.past_due; omitted or "*": all. */
  events: InputMaybe<Array<Scalars['String']['input']>>;
  /** An https:// address on the public internet. */
  url: InputMaybe<Scalars['String']['input']>;
};

export type WorkspaceNameInput = {
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
};

export type AnalyticsQueryVariables = Exact<{
  period: InputMaybe<Scalars['String']['input']>;
}>;


export type AnalyticsQuery = { analytics: { period: string, from: string, to: string, domains: Array<{ domain: string, watched: boolean, sent: number | null, delivered: number | null, bounced: number | null, replied: number | null, bounce_rate: number | null, reply_rate: number | null, inbox_rate: number | null, spam_rate: number | null }> } };

export type InvoiceFieldsFragment = { number: string, status: string, currency: string, amount_due: number, amount_paid: number, issued_at: string, due_at: string, paid_at: string | null, order_reference: string | null, past_due: boolean };

export type BillingQueryVariables = Exact<{ [key: string]: never; }>;


export type BillingQuery = { billing: { currency: string, month_to_date_spend: number, past_due_amount: number, past_due_invoices: Array<{ number: string, status: string, currency: string, amount_due: number, amount_paid: number, issued_at: string, due_at: string, paid_at: string | null, order_reference: string | null, past_due: boolean }>, next_charge: { amount: number, currency: string, date: string } | null, invoices: Array<{ number: string, status: string, currency: string, amount_due: number, amount_paid: number, issued_at: string, due_at: string, paid_at: string | null, order_reference: string | null, past_due: boolean }> } };

export type CardSetupLinkMutationVariables = Exact<{
  input: CardSetupLinkInput;
}>;


export type CardSetupLinkMutation = { createCardSetupLink: { url: string, expires_at: string } };

export type CatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type CatalogueQuery = { plans: Array<{ sku: string, product: string, description: string, currency: string, interval: string, orderable: boolean, unit_amount: number, mailboxes_per_unit: number, why_not: string | null }> };

export type CheckBimiQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
  selector: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckBimiQuery = { checkBimi: unknown };

export type CheckBlacklistQueryVariables = Exact<{
  input: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckBlacklistQuery = { checkBlacklist: unknown };

export type CheckCnameQueryVariables = Exact<{
  host: InputMaybe<Scalars['String']['input']>;
  expected: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckCnameQuery = { checkCname: unknown };

export type CheckDeliverabilityQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDeliverabilityQuery = { checkDeliverability: unknown };

export type CheckDkimQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
  selector: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDkimQuery = { checkDkim: unknown };

export type CheckDmarcQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDmarcQuery = { checkDmarc: unknown };

export type CheckDnsQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
  type: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDnsQuery = { checkDns: unknown };

export type CheckDomainExpiryQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckDomainExpiryQuery = { checkDomainExpiry: unknown };

export type CheckMtaStsQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckMtaStsQuery = { checkMtaSts: unknown };

export type CheckNameserversQueryVariables = Exact<{
  domains: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckNameserversQuery = { checkNameservers: unknown };

export type CheckProviderDomainQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckProviderDomainQuery = { checkProviderDomain: unknown };

export type CheckSpfQueryVariables = Exact<{
  domain: InputMaybe<Scalars['String']['input']>;
  ip: InputMaybe<Scalars['String']['input']>;
  sender: InputMaybe<Scalars['String']['input']>;
  helo: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckSpfQuery = { checkSpf: unknown };

export type CheckUriblQueryVariables = Exact<{
  domains: InputMaybe<Scalars['String']['input']>;
}>;


export type CheckUriblQuery = { checkUribl: unknown };

export type CreateWebhookMutationVariables = Exact<{
  input: WebhookInput;
}>;


export type CreateWebhookMutation = { createWebhook: { url: string, events: Array<string>, description: string | null, secret: string | null, webhook_id: number, created_at: string } };

export type CreateWorkspaceMutationVariables = Exact<{
  input: WorkspaceNameInput;
}>;


export type CreateWorkspaceMutation = { createWorkspace: { name: string, workspace_id: number, domain_count: number, created_at: string } };

export type DashboardQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardQuery = { dashboard: { account_id: number, account_name: string, order_count: number, domain_count: number, mailbox_count: number, orders: Array<{ reference: string, sku: string, product: string, status: string, order_id: number, subscription_id: string, created_at: string, domains: Array<{ domain: string, build_state: string, mailbox_count: number, forward_to: string | null, workspace_id: number | null, workspace_name: string | null, build_reason: string | null, build_problems: Array<{ code: string, message: string }> }> }> } };

export type DeleteWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
}>;


export type DeleteWebhookMutation = { deleteWebhook: { deleted: boolean, webhook_id: number } };

export type DeleteWorkspaceMutationVariables = Exact<{
  workspaceId: Scalars['Int']['input'];
}>;


export type DeleteWorkspaceMutation = { deleteWorkspace: { deleted: boolean, workspace_id: number, unfiled_domain_count: number } };

export type FileDomainMutationVariables = Exact<{
  domain: Scalars['String']['input'];
  input: FileDomainInput;
}>;


export type FileDomainMutation = { fileDomain: { domain: string, workspace_id: number | null, workspace_name: string | null } };

export type OrdersQueryVariables = Exact<{ [key: string]: never; }>;


export type OrdersQuery = { orders: Array<{ reference: string, sku: string, product: string, status: string, quantity: number, currency: string, interval: string, sequencer: string | null, order_id: number, subscription_id: string, unit_amount: number, renewal_total: number, monitor_reconnection: boolean, monitor_deliverability: boolean, domain_count: number, mailbox_count: number, created_at: string }> };

export type PaymentMethodQueryVariables = Exact<{ [key: string]: never; }>;


export type PaymentMethodQuery = { paymentMethod: { brand: string | null, last4: string | null, on_file: boolean, exp_month: number | null, exp_year: number | null } };

export type PlaceOrderMutationVariables = Exact<{
  order: OrderInput;
  idempotencyKey: InputMaybe<Scalars['String']['input']>;
}>;


export type PlaceOrderMutation = { placeOrder: { reference: string, sku: string, status: string, quantity: number, domains: number, mailboxes: number, total: number, replayed: boolean, order_id: number, subscription_id: string, charged: { amount: number, currency: string } } };

export type PreviewOrderQueryVariables = Exact<{
  order: OrderInput;
}>;


export type PreviewOrderQuery = { previewOrder: { ok: boolean, sku: string, product: string, domains: number, mailboxes: number, quantity: number, price: { currency: string, interval: string, total: number, unit_amount: number, mailboxes_per_unit: number, first_invoice: number }, discount: { code: string, duration: string, amount: number, description: string, percent_off: number | null, amount_off: number | null, duration_in_months: number | null, applies_to: string } | null, problems: Array<{ domain: string, index: number, issues: Array<{ severity: string, code: string, field: string, message: string }> }> } };

export type RaiseRequestMutationVariables = Exact<{
  input: RaiseRequestInput;
}>;


export type RaiseRequestMutation = { raiseRequest: { domains_repointed: number, request: { kind: string, summary: string, status: string, request_id: number, subscription_id: string, forward_to: string | null, created_at: string, replies: Array<{ author: string, body: string, created_at: string }> } } };

export type ReferralsQueryVariables = Exact<{ [key: string]: never; }>;


export type ReferralsQuery = { referrals: { code: string | null, link: string | null, currency: string, payout_destination: string | null, earned_total: number, pending_total: number, paid_total: number, earnings: Array<{ amount: number, currency: string, status: string, referred_account: string, earned_at: string }> } };

export type RenameWorkspaceMutationVariables = Exact<{
  workspaceId: Scalars['Int']['input'];
  input: WorkspaceNameInput;
}>;


export type RenameWorkspaceMutation = { renameWorkspace: { name: string, workspace_id: number, domain_count: number, created_at: string } };

export type RequestsQueryVariables = Exact<{ [key: string]: never; }>;


export type RequestsQuery = { requests: Array<{ kind: string, summary: string, status: string, request_id: number, subscription_id: string, forward_to: string | null, created_at: string, replies: Array<{ author: string, body: string, created_at: string }> }> };

export type SegmentEspQueryVariables = Exact<{
  domains: InputMaybe<Scalars['String']['input']>;
}>;


export type SegmentEspQuery = { segmentEsp: unknown };

export type SetMonitorsMutationVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  input: MonitorsInput;
}>;


export type SetMonitorsMutation = { setMonitors: { sequencer: string | null, subscription_id: string, reconnection: boolean, deliverability: boolean } };

export type SetSequencerMutationVariables = Exact<{
  subscriptionId: Scalars['String']['input'];
  input: SequencerInput;
}>;


export type SetSequencerMutation = { setSequencer: { sequencer: string | null, subscription_id: string, reconnection: boolean, deliverability: boolean } };

export type UpdateWebhookMutationVariables = Exact<{
  webhookId: Scalars['Int']['input'];
  input: WebhookInput;
}>;


export type UpdateWebhookMutation = { updateWebhook: { url: string, events: Array<string>, description: string | null, webhook_id: number, created_at: string } };

export type VerifyEmailQueryVariables = Exact<{
  emails: InputMaybe<Scalars['String']['input']>;
}>;


export type VerifyEmailQuery = { verifyEmail: unknown };

export type WebhookDeliveriesQueryVariables = Exact<{
  webhookId: Scalars['Int']['input'];
}>;


export type WebhookDeliveriesQuery = { webhookDeliveries: Array<{ status: string, delivery_id: number, event_id: string, event_type: string, created_at: string, delivered_at: string | null, next_attempt_at: string | null, attempts: Array<{ attempt: number, at: string, error: string | null, status_code: number | null, duration_ms: number }> }> };

export type WebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhooksQuery = { webhooks: Array<{ url: string, events: Array<string>, description: string | null, webhook_id: number, created_at: string }> };

export type WorkspacesQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspacesQuery = { workspaces: { unfiled_domain_count: number, workspaces: Array<{ name: string, workspace_id: number, domain_count: number, created_at: string }> } };
