import type { Scope } from '../resolvers/auth/scopes.js';
import type { RateLimitClass } from '../resolvers/limits/rate-limits.js';
import { publicCheckRows } from './public-check-rows.js';
import { ANALYTICS_PERIODS } from '../resolvers/account/get-analytics.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../resolvers/pagination.js';
import { pageForRest, pageSchemaForRest } from './page-answer.js';
import { REINSTATE_GRACE_DAYS } from '../resolvers/orders/reinstatement-checks.js';
import { REPORT_UPLOAD_BODY_BYTES, REPORT_UPLOAD_TOO_LARGE } from '../resolvers/reports/upload-report.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How one input reaches the operation's variables. */
export interface ParamSpec {
  readonly name: string;
  /** body: a field of the JSON body (REST) or an argument (MCP), for a row whose operation takes scalar arguments rather than one input object. */
  readonly in: 'path' | 'query' | 'body';
  readonly type: 'string' | 'integer' | 'boolean';
  readonly required: boolean;
  readonly description: string;
  /** A list of strings: comma-separated in a query string, a JSON array in a body or MCP. */
  readonly list?: boolean;
  /** The most distinct items a list takes. */
  readonly maxItems?: number;
  /** The values a string takes (in any case: the door upper-cases them for GraphQL's enum). */
  readonly enum?: readonly string[];
}

/** MCP tool annotations (MCP 2025-06-18 ToolAnnotations): hints a client shows before calling. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * One documented operation. The table drives the REST routes, the MCP tool lists, tools.json and
 * the OpenAPI documents; adding an endpoint is adding a row and its operation document.
 */
export interface OperationRow {
  /** operationId, and the name of the MCP tool every row is on its listener's /mcp. */
  readonly name: string;
  readonly listener: 'api' | 'public';
  readonly method: HttpMethod;
  /** Path with {param} placeholders. */
  readonly path: string;
  /** File in operations/documents/ holding the named GraphQL operation, printed from the row (print-operation-document.ts). */
  readonly document: string;
  /** The REST answer is data[unwrap] when set, else the whole data object. */
  readonly unwrap?: string;
  /** The schema field the operation calls, where the row does not unwrap it (its document is printed from it). */
  readonly field?: string;
  /** Fields the document selects although REST and MCP leave them out elsewhere ("WebhookEndpoint.secret"). */
  readonly alsoSelects?: readonly string[];
  /** null for the public checks. */
  readonly scope: Scope | null;
  readonly rateLimit: RateLimitClass;
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  /** The variable that receives the JSON body (keys turned from snake_case to camelCase), if any. */
  readonly bodyVariable?: string;
  /** Request headers passed to the operation as variables (Idempotency-Key). */
  readonly headerVariables?: readonly { readonly header: string; readonly variable: string }[];
  /**
   * @deprecated Every row is an MCP tool on its listener's /mcp, named `name` (toolNameOf); this
   * only renames one, and the parity test (test/mcp/mcp-parity.test.ts) wants it equal to `name`.
   */
  readonly mcpTool?: string;
  /** What calling it does, for MCP clients (and x-annotations in OpenAPI). */
  readonly annotations: ToolAnnotations;
  /**
   * The REST answer is data[unwrap], a string, sent as this media type rather than JSON (a zone file
   * as text/dns). Errors stay JSON.
   */
  readonly textAnswer?: string;
  /** Turns the operation's answer into the REST/MCP answer (the checks drop the keys they leave out). */
  readonly reshape?: (answer: unknown) => unknown;
  /**
   * REST also takes the body as raw bytes (any Content-Type but application/json): the bytes reach
   * the body variable base64-encoded in `contentField`, with `?filename=` in `nameField`. GraphQL and
   * MCP send the same fields in the JSON input (a file upload does not fit GraphQL's JSON).
   */
  readonly rawBody?: { readonly contentField: string; readonly nameField: string };
  /**
   * A larger body than the listener's 1 MiB for this REST path only (server/serve-http.ts reads it
   * before the body arrives, so it stays a bound): the report upload takes a whole report file.
   */
  readonly maxBodyBytes?: { readonly bytes: number; readonly detail: string };
  /** The answer's JSON Schema as `reshape` changes it (OpenAPI's 200 and the MCP tool's outputSchema). */
  readonly reshapeSchema?: (schema: Record<string, unknown>) => Record<string, unknown>;
}

/** The MCP tool name of a row: every row is a tool, so REST and MCP offer the same operations. */
export function toolNameOf(row: OperationRow): string {
  return row.mcpTool ?? row.name;
}

/** Reads change nothing; repeating them changes nothing. */
export const READING: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds a record each call (a folder, a request). */
const ADDING: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Replaces a setting or removes a record: the previous value is gone; the same call again changes nothing more. */
const REPLACING: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const periodParam: ParamSpec = {
  name: 'period',
  in: 'query',
  type: 'string',
  required: false,
  enum: Object.keys(ANALYTICS_PERIODS),
  description: `Length of the period ending today: ${Object.keys(ANALYTICS_PERIODS).join(', ')}; default 7d.`,
};

/** limit and starting_after of a list paged through a GraphQL connection (answers gain "has_more"; docs/api.md, "Pagination"). */
function pageParams(noun: string, cursor: string): readonly ParamSpec[] {
  return [
    { name: 'limit', in: 'query', type: 'integer', required: false, description: `${noun} per page, 1 to ${MAX_PAGE_LIMIT}; default ${DEFAULT_PAGE_LIMIT}.` },
    {
      name: 'starting_after',
      in: 'query',
      type: 'string',
      required: false,
      description: `The ${cursor} of the last item of the previous page: the page continues after it.`,
    },
  ];
}

/** The reshaping of a row whose document selects a connection as "page" (operations/page-answer.ts). */
const PAGED = { reshape: pageForRest, reshapeSchema: pageSchemaForRest } as const;

export const accountReadingRows: readonly OperationRow[] = [
  {
    name: 'get_dashboard',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/dashboard',
    document: 'dashboard',
    unwrap: 'dashboard',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'The account\'s counts, and its domains a page at a time (newest order first, then by name), grouped by the order that paid for them, with build state and mailbox count: "orders" and "has_more"; page on with starting_after=<last domain>.',
    params: pageParams('Domains', 'domain'),
    annotations: READING,
    ...PAGED,
  },
  {
    name: 'list_orders',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/orders',
    document: 'orders',
    field: 'ordersConnection',
    scope: 'read',
    rateLimit: 'read',
    summary: 'The caller\'s orders, newest first, a page at a time: {"orders": [...], "has_more": true|false}; page on with starting_after=<last order_id>.',
    params: pageParams('Orders', 'order_id'),
    annotations: READING,
    ...PAGED,
  },
  {
    name: 'get_billing',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/billing',
    document: 'billing',
    unwrap: 'billing',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'This month\'s spend, anything past due, the next charge, and the invoices a page at a time, newest first: "invoices" and "has_more"; page on with starting_after=<last invoice number>.',
    params: pageParams('Invoices', 'number'),
    annotations: READING,
    ...PAGED,
  },
  {
    name: 'get_deliverability',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/analytics',
    document: 'analytics',
    unwrap: 'analytics',
    scope: 'read',
    rateLimit: 'read',
    summary: "Deliverability of the caller's domains over a period; a domain not yet watched carries null.",
    params: [periodParam],
    annotations: READING,
  },
  {
    name: 'list_workspaces',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/workspaces',
    document: 'workspaces',
    unwrap: 'workspaces',
    scope: 'read',
    rateLimit: 'read',
    summary: 'Folders and the number of domains in each.',
    params: [],
    annotations: READING,
  },
  {
    name: 'list_requests',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/requests',
    document: 'requests',
    field: 'requests',
    scope: 'read',
    rateLimit: 'read',
    summary: "Change requests and the service's replies.",
    params: [],
    annotations: READING,
  },
  {
    name: 'get_referrals',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/referrals',
    document: 'referrals',
    unwrap: 'referrals',
    scope: 'read',
    rateLimit: 'read',
    summary: 'Referral code, earnings, payout destination.',
    params: [],
    annotations: READING,
  },
  {
    name: 'list_catalogue',
    listener: 'api',
    method: 'GET',
    path: '/v1/catalogue',
    document: 'catalogue',
    field: 'catalogue',
    scope: 'read',
    rateLimit: 'read',
    summary: 'What can be ordered and at what price: only plans the caller is already on.',
    params: [],
    annotations: READING,
  },
  {
    name: 'check_payment_method',
    listener: 'api',
    method: 'GET',
    path: '/v1/payment-method',
    document: 'payment-method',
    unwrap: 'paymentMethod',
    scope: 'read',
    rateLimit: 'read',
    summary: 'Whether a card is on file, as brand and last four.',
    params: [],
    annotations: READING,
  },
];

const workspaceIdParam: ParamSpec = {
  name: 'workspace_id',
  in: 'path',
  type: 'integer',
  required: true,
  description: 'A workspace_id from GET /v1/portal/workspaces.',
};
const subscriptionIdParam: ParamSpec = {
  name: 'subscription_id',
  in: 'path',
  type: 'string',
  required: true,
  description: 'A subscription_id from GET /v1/portal/orders.',
};

/** Changing (SPEC 4.2): scope write, the 60-per-minute class; the body arrives as `input`. */
export const accountChangingRows = [
  {
    name: 'create_workspace',
    listener: 'api',
    method: 'POST',
    path: '/v1/portal/workspaces',
    document: 'create-workspace',
    unwrap: 'createWorkspace',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Creates a folder: {"name": "..."}.',
    params: [],
    bodyVariable: 'input',
    annotations: ADDING,
  },
  {
    name: 'rename_workspace',
    listener: 'api',
    method: 'PUT',
    path: '/v1/portal/workspaces/{workspace_id}',
    document: 'rename-workspace',
    unwrap: 'renameWorkspace',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Renames a folder: {"name": "..."}.',
    params: [workspaceIdParam],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
  {
    name: 'delete_workspace',
    listener: 'api',
    method: 'DELETE',
    path: '/v1/portal/workspaces/{workspace_id}',
    document: 'delete-workspace',
    unwrap: 'deleteWorkspace',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Removes a folder; its domains are kept with no folder.',
    params: [workspaceIdParam],
    annotations: REPLACING,
  },
  {
    name: 'file_domain',
    listener: 'api',
    method: 'PUT',
    path: '/v1/portal/domains/{domain}/workspace',
    document: 'file-domain',
    unwrap: 'fileDomain',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Files a domain into a folder: {"workspace_id": 12}, or {"workspace_id": null} to unfile it.',
    params: [{ name: 'domain', in: 'path', type: 'string', required: true, description: 'A domain on one of your orders.' }],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
  {
    name: 'set_sequencer',
    listener: 'api',
    method: 'PUT',
    path: '/v1/portal/orders/{subscription_id}/sequencer',
    document: 'set-sequencer',
    unwrap: 'setSequencer',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Sets the sending tool the order sends from: {"sequencer": "instantly"} (allowed values in docs/ordering.md).',
    params: [subscriptionIdParam],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
  {
    name: 'set_monitors',
    listener: 'api',
    method: 'PUT',
    path: '/v1/portal/orders/{subscription_id}/monitors',
    document: 'set-monitors',
    unwrap: 'setMonitors',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Sets the monitor switches: {"reconnection": true, "deliverability": false}; a switch not sent is left as it is.',
    params: [subscriptionIdParam],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
  {
    name: 'raise_request',
    listener: 'api',
    method: 'POST',
    path: '/v1/portal/requests',
    document: 'raise-request',
    unwrap: 'raiseRequest',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Raises a change request {subscription_id, kind, summary}; kind "forwarding" (with forward_to) repoints every domain of the order at once.',
    params: [],
    bodyVariable: 'input',
    annotations: ADDING,
  },
] as const satisfies readonly OperationRow[];

/** Ordering (SPEC 4.2): preview (read), place and the card setup link (orders:place). */
export const orderingRows = [
  {
    name: 'preview_order',
    listener: 'api',
    method: 'POST',
    path: '/v1/orders/preview',
    document: 'preview-order',
    unwrap: 'previewOrder',
    scope: 'read',
    rateLimit: 'change',
    summary: 'Checks and prices an order; creates nothing. Runs the same checks as placing, so a passing preview is accepted.',
    params: [],
    bodyVariable: 'order',
    annotations: READING,
  },
  {
    name: 'place_order',
    listener: 'api',
    method: 'POST',
    path: '/v1/orders',
    document: 'place-order',
    unwrap: 'placeOrder',
    scope: 'orders:place',
    rateLimit: 'order',
    summary:
      'Places the order and charges the card on file. A unique idempotency key is required: retrying with the same key answers the order already placed and never charges twice.',
    params: [],
    bodyVariable: 'order',
    headerVariables: [{ header: 'Idempotency-Key', variable: 'idempotencyKey' }],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  },
  {
    name: 'reinstate_order',
    listener: 'api',
    method: 'POST',
    path: '/v1/orders/{order_id}/reinstate',
    document: 'reinstate-order',
    unwrap: 'reinstateOrder',
    scope: 'orders:place',
    rateLimit: 'change',
    summary: `Reinstates a cancelled order within ${REINSTATE_GRACE_DAYS} days of its cancellation: starts a new subscription charged to the card on file and takes its suspended mailboxes up again (mailbox.reactivated per domain). A unique idempotency key is required: retrying with the same key answers the reinstatement already made and never charges twice. 402 when the card is declined (nothing changes).`,
    params: [{ name: 'order_id', in: 'path', type: 'integer', required: true, description: "A cancelled order's order_id from GET /v1/portal/orders." }],
    headerVariables: [{ header: 'Idempotency-Key', variable: 'idempotencyKey' }],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
  {
    name: 'create_card_setup_link',
    listener: 'api',
    method: 'POST',
    path: '/v1/payment-method/setup-link',
    document: 'card-setup-link',
    unwrap: 'createCardSetupLink',
    scope: 'orders:place',
    rateLimit: 'change',
    summary: 'A link to a payment processor page where a person saves a card: {"success_url": "https://...", "cancel_url": "https://..."}.',
    params: [],
    bodyVariable: 'input',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
] as const satisfies readonly OperationRow[];

/** The first order and paying what is open: asking for a plan, and "pay now". */
export const moneyRows = [
  {
    name: 'request_plan',
    listener: 'api',
    method: 'POST',
    path: '/v1/catalogue/requests',
    document: 'request-plan',
    unwrap: 'requestPlan',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Asks our team to put the account on a plan: {"message": "20 Google inboxes a month", "sku": "optional"}. We answer by e-mail.',
    params: [],
    bodyVariable: 'input',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'pay_invoices',
    listener: 'api',
    method: 'POST',
    path: '/v1/portal/billing/pay',
    document: 'pay-invoices',
    unwrap: 'payInvoices',
    scope: 'orders:place',
    rateLimit: 'change',
    summary: 'Pays the open invoices now with the card on file; {"invoice_number": "..."} pays one. 402 when the card is declined, 409 when nothing is open.',
    params: [],
    bodyVariable: 'input',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  },
] as const satisfies readonly OperationRow[];

/** Proving a domain is yours (issue 12, item 6): preview and place refuse a domain until this is done once. */
export const domainVerificationRows = [
  {
    name: 'get_domain_verification',
    listener: 'api',
    method: 'GET',
    path: '/v1/domains/verification',
    document: 'domain-verification',
    unwrap: 'domainVerification',
    scope: 'read',
    rateLimit: 'read',
    summary: 'Your verification token, the TXT record that proves a domain is yours (at _inbox-verification.<domain>), and the domains already verified.',
    params: [],
    annotations: READING,
  },
  {
    name: 'verify_domain',
    listener: 'api',
    method: 'POST',
    path: '/v1/domains/{domain}/verify',
    document: 'verify-domain',
    unwrap: 'verifyDomain',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Check now: looks the TXT at _inbox-verification.<domain> up and answers verified true or false with a sentence; once verified, a domain stays verified for your account. With {"connection_id": 3} the TXT is first published through that DNS connection of yours (the one record written to a domain not yet proved: a key that changes the zone is proof), then read from the zone\'s own servers, so the answer is verified true at once.',
    params: [
      { name: 'domain', in: 'path', type: 'string', required: true, description: 'The domain to verify, e.g. example.com.' },
      {
        name: 'connection_id',
        in: 'body',
        type: 'integer',
        required: false,
        description: 'Optional: a connection_id from GET /v1/dns-connections to publish the proof TXT through first; leave it out to only check.',
      },
    ],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
] as const satisfies readonly OperationRow[];

const setupDomainParam: ParamSpec = {
  name: 'domain',
  in: 'path',
  type: 'string',
  required: true,
  description: 'A domain on one of your orders, e.g. example.com.',
};

/** Each domain's setup (docs/domain-setup.md): scope read to read and to check now. */
export const domainSetupRows = [
  {
    name: 'get_domain_setup',
    listener: 'api',
    method: 'GET',
    path: '/v1/domains/{domain}/setup',
    document: 'domain-setup',
    unwrap: 'domainSetup',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'The records a domain on your orders needs (MX, SPF merged into yours, DKIM, DMARC, forwarding, proof of control), each with its status from our checks (verified, missing, wrong with what was found, conflict), and its build state.',
    params: [setupDomainParam],
    annotations: { ...READING, openWorldHint: true },
  },
  {
    name: 'check_domain_setup',
    listener: 'api',
    method: 'POST',
    path: '/v1/domains/{domain}/setup/check',
    document: 'check-domain-setup',
    unwrap: 'checkDomainSetup',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'Check now: looks every record up, records the build state that justifies (a domain waiting for DNS whose records appeared goes live), and answers as GET /v1/domains/{domain}/setup.',
    params: [setupDomainParam],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
  {
    name: 'get_domain_setup_zone',
    listener: 'api',
    method: 'GET',
    path: '/v1/domains/{domain}/setup/zone',
    document: 'domain-setup-zone',
    unwrap: 'domainSetupZone',
    scope: 'read',
    rateLimit: 'read',
    summary: "The domain's records as a BIND zone-file snippet (text/dns), to paste into a zone or import at a DNS host.",
    params: [setupDomainParam],
    textAnswer: 'text/dns',
    annotations: READING,
  },
  {
    name: 'apply_domain_setup',
    listener: 'api',
    method: 'POST',
    path: '/v1/domains/{domain}/setup/apply',
    document: 'apply-domain-setup',
    unwrap: 'applyDomainSetup',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Publishes the records of a verified domain on your orders that our checks do not find verified, through one of your DNS connections: {"connection_id": 3, "dry_run": true} shows the changes (add, replace) and makes none; with "dry_run": false they are made and the setup is checked again. Applying twice changes nothing the second time.',
    params: [
      setupDomainParam,
      { name: 'connection_id', in: 'body', type: 'integer', required: true, description: 'A connection_id from GET /v1/dns-connections.' },
      {
        name: 'dry_run',
        in: 'body',
        type: 'boolean',
        required: true,
        description: 'true: answer the changes without making them (try this first); false: make them.',
      },
    ],
    // Destructive: a real apply replaces records at the provider (another provider's MX, an old SPF); a dry run changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  },
  {
    name: 'list_domain_setup_applies',
    listener: 'api',
    method: 'GET',
    path: '/v1/domains/{domain}/setup/applies',
    document: 'domain-setup-applies',
    field: 'domainSetupApplies',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'The journal of a domain\'s publishes, newest first: each apply that wrote records (and each revert), with every RRset it touched as read before and after the write: {"data": [{"apply_id", "applied_at", "connection_id", "changes", "reverted_at"}], "has_more": true|false}; page on with starting_after=<last apply_id>.',
    params: [setupDomainParam, ...pageParams('Applies', 'apply_id')],
    annotations: READING,
    ...PAGED,
  },
  {
    name: 'revert_domain_setup_apply',
    listener: 'api',
    method: 'POST',
    path: '/v1/domains/{domain}/setup/applies/{apply_id}/revert',
    document: 'revert-domain-setup-apply',
    unwrap: 'revertDomainSetupApply',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Undoes an apply: puts back exactly the RRsets it replaced (TTLs included) and removes what it added, through the connection it used. {"dry_run": true} shows the changes and makes none. Refused with 409 conflict, listing them, when the zone changed since the apply; an apply is reverted once.',
    params: [
      setupDomainParam,
      { name: 'apply_id', in: 'path', type: 'integer', required: true, description: 'An apply_id from GET /v1/domains/{domain}/setup/applies.' },
      {
        name: 'dry_run',
        in: 'body',
        type: 'boolean',
        required: true,
        description: 'true: answer the changes without making them (try this first); false: make them.',
      },
    ],
    // Destructive: a revert removes the records the apply published (the domain's mail may stop working); a dry run changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
] as const satisfies readonly OperationRow[];

/** GET /v1/events on REST and MCP: each event's data_json text becomes the object "data". */
function eventPageForRest(answer: unknown): unknown {
  if (!answer || typeof answer !== 'object' || !('data' in answer) || !Array.isArray(answer.data)) return answer;
  const data = answer.data.map((event: unknown) => {
    if (!event || typeof event !== 'object' || !('data_json' in event) || typeof event.data_json !== 'string') return event;
    const { data_json, ...rest } = event;
    return { ...rest, data: JSON.parse(data_json) };
  });
  return { ...answer, data };
}

/** The schema of that answer: each event's data_json (a string) becomes data (an object). */
function eventPageSchemaForRest(schema: Record<string, unknown>): Record<string, unknown> {
  const page = structuredClone(schema) as { properties?: { data?: { items?: { properties?: Record<string, unknown>; required?: string[] } } } };
  const event = page.properties?.data?.items;
  if (!event?.properties || !('data_json' in event.properties)) throw new Error('list_events: events.graphql no longer selects data_json.');
  const { data_json: _text, ...rest } = event.properties;
  event.properties = { ...rest, data: { type: 'object', description: "The event's payload (its fields depend on the type; docs/webhooks.md)." } };
  event.required = (event.required ?? []).map((name) => (name === 'data_json' ? 'data' : name));
  return page as Record<string, unknown>;
}

const webhookIdParam: ParamSpec = { name: 'webhook_id', in: 'path', type: 'integer', required: true, description: 'A webhook_id from GET /v1/webhooks.' };

/** Webhook endpoints (issue 13; beyond SPEC 6): scope write throughout, since an endpoint receives the account's events. */
export const webhookRows = [
  {
    name: 'list_webhooks',
    listener: 'api',
    method: 'GET',
    path: '/v1/webhooks',
    document: 'webhooks',
    unwrap: 'webhooks',
    scope: 'write',
    rateLimit: 'read',
    summary: 'The webhook endpoints of your account (their secrets are shown only when created).',
    params: [],
    annotations: READING,
  },
  {
    name: 'create_webhook',
    listener: 'api',
    method: 'POST',
    path: '/v1/webhooks',
    document: 'create-webhook',
    unwrap: 'createWebhook',
    alsoSelects: ['WebhookEndpoint.secret'],
    scope: 'write',
    rateLimit: 'change',
    summary: 'Registers an endpoint: {"url": "https://...", "events": ["domain.live"]}; the answer carries the signing secret, shown once.',
    params: [],
    bodyVariable: 'input',
    annotations: ADDING,
  },
  {
    name: 'update_webhook',
    listener: 'api',
    method: 'PUT',
    path: '/v1/webhooks/{webhook_id}',
    document: 'update-webhook',
    unwrap: 'updateWebhook',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Changes an endpoint: any of {"url", "events", "description"}.',
    params: [webhookIdParam],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
  {
    name: 'delete_webhook',
    listener: 'api',
    method: 'DELETE',
    path: '/v1/webhooks/{webhook_id}',
    document: 'delete-webhook',
    unwrap: 'deleteWebhook',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Stops deliveries to an endpoint.',
    params: [webhookIdParam],
    annotations: REPLACING,
  },
  {
    name: 'list_webhook_deliveries',
    listener: 'api',
    method: 'GET',
    path: '/v1/webhooks/{webhook_id}/deliveries',
    document: 'webhook-deliveries',
    field: 'webhookDeliveriesConnection',
    scope: 'write',
    rateLimit: 'read',
    summary:
      'The deliveries to an endpoint, newest first, each with its attempts (status code, error, duration), a page at a time: {"webhook_deliveries": [...], "has_more": true|false}; page on with starting_after=<last delivery_id>.',
    params: [webhookIdParam, ...pageParams('Deliveries', 'delivery_id')],
    annotations: READING,
    ...PAGED,
  },
  {
    name: 'send_test_webhook',
    listener: 'api',
    method: 'POST',
    path: '/v1/webhooks/{webhook_id}/test',
    document: 'send-test-webhook',
    unwrap: 'sendTestWebhook',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Sends a webhook.test event to this endpoint (whatever it is subscribed to), signed like any other; its deliveries list shows how it went.',
    params: [webhookIdParam],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'resend_webhook_delivery',
    listener: 'api',
    method: 'POST',
    path: '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/resend',
    document: 'resend-webhook-delivery',
    unwrap: 'resendWebhookDelivery',
    scope: 'write',
    rateLimit: 'change',
    summary: 'One more attempt at a delivered or failed delivery, with the same event id (409 while it is still pending).',
    params: [
      webhookIdParam,
      { name: 'delivery_id', in: 'path', type: 'integer', required: true, description: 'A delivery_id from GET /v1/webhooks/{webhook_id}/deliveries.' },
    ],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'list_events',
    listener: 'api',
    method: 'GET',
    path: '/v1/events',
    document: 'events',
    unwrap: 'events',
    scope: 'write',
    rateLimit: 'read',
    summary: 'Your events of the last 30 days, newest first: {"data": [...], "has_more": true|false}; page on with starting_after=<last id>.',
    params: [
      { name: 'limit', in: 'query', type: 'integer', required: false, description: 'Events per page, 1 to 100; default 10.' },
      { name: 'starting_after', in: 'query', type: 'string', required: false, description: 'The id of the last event of the previous page.' },
    ],
    annotations: READING,
    // Each event's data is JSON text in GraphQL (no JSON scalar); REST and MCP answer it as an object.
    reshape: (answer) => eventPageForRest(answer),
    reshapeSchema: eventPageSchemaForRest,
  },
] as const satisfies readonly OperationRow[];

/** The extra addresses alert e-mails go to besides the account's people (docs/operations.md, "Alert e-mails"). */
export const alertRecipientRows = [
  {
    name: 'get_alert_recipients',
    listener: 'api',
    method: 'GET',
    path: '/v1/alerts/recipients',
    document: 'alert-recipients',
    unwrap: 'alertRecipients',
    scope: 'read',
    rateLimit: 'read',
    summary: "The extra addresses alert e-mails go to, besides your account's people (who always receive them).",
    params: [],
    annotations: READING,
  },
  {
    name: 'set_alert_recipients',
    listener: 'api',
    method: 'PUT',
    path: '/v1/alerts/recipients',
    document: 'set-alert-recipients',
    unwrap: 'setAlertRecipients',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Replaces the extra alert addresses: {"emails": ["ops@example.com"]} (at most 10; [] for none).',
    params: [],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
  {
    name: 'get_alert_settings',
    listener: 'api',
    method: 'GET',
    path: '/v1/alerts/settings',
    document: 'alert-settings',
    unwrap: 'alertSettings',
    scope: 'read',
    rateLimit: 'read',
    summary: "Your account's report alert thresholds: the DMARC pass rate under which a report raises dmarc.failures, and whether it is yours or the default.",
    params: [],
    annotations: READING,
  },
  {
    name: 'set_alert_settings',
    listener: 'api',
    method: 'PUT',
    path: '/v1/alerts/settings',
    document: 'set-alert-settings',
    unwrap: 'setAlertSettings',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Sets the DMARC pass rate under which a report raises dmarc.failures: {"dmarc_pass_rate_threshold": 95} (percent, above 0 and at most 100; null for the default).',
    params: [],
    bodyVariable: 'input',
    annotations: REPLACING,
  },
] as const satisfies readonly OperationRow[];

const connectionIdParam: ParamSpec = {
  name: 'connection_id',
  in: 'path',
  type: 'integer',
  required: true,
  description: 'A connection_id from GET /v1/dns-connections.',
};

/** DNS connections (docs/domain-publishing.md): read to list, write to create and delete; secrets are never answered. */
export const dnsConnectionRows = [
  {
    name: 'list_dns_connections',
    listener: 'api',
    method: 'GET',
    path: '/v1/dns-connections',
    document: 'dns-connections',
    unwrap: 'dnsConnections',
    scope: 'read',
    rateLimit: 'read',
    summary: "Your account's DNS connections, without their secrets (which are never shown again).",
    params: [],
    annotations: READING,
  },
  {
    name: 'create_dns_connection',
    listener: 'api',
    method: 'POST',
    path: '/v1/dns-connections',
    document: 'create-dns-connection',
    unwrap: 'createDnsConnection',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Stores a connection to your DNS provider: {"kind": "rfc2136", "server": "ns1.example.net", "port": 53, "key_name": "update-key", "algorithm": "hmac-sha256", "secret": "<base64>"} or {"kind": "cloudflare", "api_token": "..."}; the secret is encrypted and never shown again.',
    params: [],
    bodyVariable: 'input',
    annotations: ADDING,
  },
  {
    name: 'delete_dns_connection',
    listener: 'api',
    method: 'DELETE',
    path: '/v1/dns-connections/{connection_id}',
    document: 'delete-dns-connection',
    unwrap: 'deleteDnsConnection',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Deletes a connection and its stored secret.',
    params: [connectionIdParam],
    annotations: REPLACING,
  },
] as const satisfies readonly OperationRow[];

const mailboxDomainParam: ParamSpec = {
  name: 'domain',
  in: 'path',
  type: 'string',
  required: true,
  description: 'A domain on one of your orders, e.g. example.com.',
};

/** Inboxes behind the domain (docs/mailboxes.md): read to list, write for anything that shows or changes a password. */
export const mailboxRows = [
  {
    name: 'list_domain_mailboxes',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/domains/{domain}/mailboxes',
    document: 'domain-mailboxes',
    unwrap: 'domainMailboxes',
    scope: 'read',
    rateLimit: 'read',
    summary: 'The mailboxes of a domain on your orders, each with its status at the provider (pending, active, suspended); never a password.',
    params: [mailboxDomainParam],
    mcpTool: 'list_domain_mailboxes',
    annotations: READING,
  },
  {
    name: 'reveal_mailbox_credentials',
    listener: 'api',
    method: 'POST',
    path: '/v1/portal/domains/{domain}/mailboxes/credentials',
    document: 'reveal-mailbox-credentials',
    unwrap: 'revealMailboxCredentials',
    scope: 'write',
    rateLimit: 'change',
    summary:
      "Shows the domain's mailbox passwords with the IMAP and SMTP servers a sending tool connects to; each reveal is recorded as a mailbox.credentials_revealed event (which never holds a password).",
    params: [mailboxDomainParam],
    mcpTool: 'reveal_mailbox_credentials',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: 'reset_mailbox_password',
    listener: 'api',
    method: 'POST',
    path: '/v1/portal/mailboxes/{email}/password',
    document: 'reset-mailbox-password',
    unwrap: 'resetMailboxPassword',
    scope: 'write',
    rateLimit: 'change',
    summary: 'Gives the mailbox a new generated password at the provider and answers it once with the IMAP and SMTP servers; the old password stops working.',
    params: [{ name: 'email', in: 'path', type: 'string', required: true, description: 'A mailbox address on one of your domains, e.g. ada@example.com.' }],
    mcpTool: 'reset_mailbox_password',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'export_order_mailboxes',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/orders/{subscription_id}/export',
    document: 'order-export',
    unwrap: 'orderExport',
    scope: 'write',
    rateLimit: 'read',
    summary:
      "The order's active mailboxes with their passwords as CSV (text/csv) in a sequencer's bulk-import columns: format=generic (IMAP/SMTP) or a sequencer (instantly, smartlead, saleshandy, plusvibe, reply, woodpecker, quickmail, emelia have columns of their own; lemlist, apollo, outreach, salesloft, hubspot, mailshake take the generic ones); the order's sequencer picks the default. Recorded as a mailbox.credentials_revealed event.",
    params: [
      subscriptionIdParam,
      {
        name: 'format',
        in: 'query',
        type: 'string',
        required: false,
        description:
          "generic (IMAP/SMTP) or one of the order sequencers (instantly, smartlead, lemlist, apollo, reply, woodpecker, saleshandy, outreach, salesloft, hubspot, mailshake, quickmail, emelia, plusvibe); left out: the order's sequencer's format.",
      },
    ],
    textAnswer: 'text/csv',
    annotations: { ...READING, readOnlyHint: false, idempotentHint: false },
  },
] as const satisfies readonly OperationRow[];

/** DMARC aggregate and TLS-RPT reports (docs/reports.md). */
export const reportRows = [
  {
    name: 'upload_report',
    listener: 'api',
    method: 'POST',
    path: '/v1/reports',
    document: 'upload-report',
    unwrap: 'uploadReport',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Uploads a DMARC aggregate (XML, .xml.gz, .zip, .eml) or TLS-RPT (.json, .json.gz) report file: the raw bytes as the body (?filename=report.xml.gz), or {"content": "<base64>", "filename": "..."} as JSON; each report in it is stored once.',
    params: [],
    bodyVariable: 'input',
    rawBody: { contentField: 'content', nameField: 'filename' },
    maxBodyBytes: { bytes: REPORT_UPLOAD_BODY_BYTES, detail: REPORT_UPLOAD_TOO_LARGE },
    mcpTool: 'upload_report',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'list_reports',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/reports',
    document: 'reports',
    unwrap: 'reports',
    scope: 'read',
    rateLimit: 'read',
    summary: 'Your DMARC aggregate and TLS-RPT reports, newest received first: {"data": [...], "has_more": true|false}; page on with starting_after=<last id>.',
    params: [
      { name: 'limit', in: 'query', type: 'integer', required: false, description: 'Reports per page, 1 to 100; default 20.' },
      { name: 'starting_after', in: 'query', type: 'string', required: false, description: 'The id of the last report of the previous page.' },
      { name: 'domain', in: 'query', type: 'string', required: false, description: 'Only the reports for this domain.' },
    ],
    mcpTool: 'list_reports',
    annotations: READING,
  },
  {
    name: 'get_domain_sources',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/domains/{domain}/sources',
    document: 'domain-sources',
    unwrap: 'domainSources',
    scope: 'read',
    rateLimit: 'read',
    summary: 'Who sends as one of your domains (from DMARC aggregate reports): each source address with its messages and DMARC pass rate over the period.',
    params: [{ name: 'domain', in: 'path', type: 'string', required: true, description: 'One of your domains.' }, periodParam],
    mcpTool: 'get_domain_sources',
    annotations: READING,
  },
  {
    name: 'get_report_days',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/reports/daily',
    document: 'report-days',
    unwrap: 'reportDays',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'Messages reported and DMARC pass rate per domain and day over the period (DMARC aggregate reports): every domain of yours, each with only the days a report covers (none: no report yet).',
    params: [periodParam],
    mcpTool: 'get_report_days',
    annotations: READING,
  },
  {
    name: 'get_tls_report_days',
    listener: 'api',
    method: 'GET',
    path: '/v1/portal/reports/tls-daily',
    document: 'tls-report-days',
    unwrap: 'tlsReportDays',
    scope: 'read',
    rateLimit: 'read',
    summary:
      'TLS sessions to your domains per domain and day over the period (TLS-RPT reports, RFC 8460): successful and failed sessions and the success rate; every domain of yours, each with only the days a report covers (none: no report yet).',
    params: [periodParam],
    mcpTool: 'get_tls_report_days',
    annotations: READING,
  },
] as const satisfies readonly OperationRow[];

/** The DMARC ramp (docs/dmarc-ramp.md): read it, advance it, and the account's automatic setting. */
export const dmarcRampRows = [
  {
    name: 'get_dmarc_ramp',
    listener: 'api',
    method: 'GET',
    path: '/v1/domains/{domain}/dmarc-ramp',
    document: 'dmarc-ramp',
    unwrap: 'dmarcRamp',
    scope: 'read',
    rateLimit: 'read',
    summary:
      "A domain's way to DMARC enforcement: the step its published record stands on (none, quarantine_25, quarantine, reject), whether the next step is safe (14 days of authenticated reports, 99% passing, no failing sender of yours) and what blocks it in a sentence, the failing sources with PTR name and service, the timeline of steps, and an offer to undo an advance that hurts mail.",
    params: [setupDomainParam],
    annotations: { ...READING, openWorldHint: true },
  },
  {
    name: 'advance_dmarc_ramp',
    listener: 'api',
    method: 'POST',
    path: '/v1/domains/{domain}/dmarc-ramp/advance',
    document: 'advance-dmarc-ramp',
    unwrap: 'advanceDmarcRamp',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Publishes the next step of the domain\'s DMARC policy through one of your DNS connections, only when the ramp is ready: {"connection_id": 3, "dry_run": true} shows the record and the change and makes none. The record keeps every tag and report address; the publish is journaled, so reverting its apply_id undoes the step. 409 ramp_not_ready says what blocks it.',
    params: [
      setupDomainParam,
      { name: 'connection_id', in: 'body', type: 'integer', required: true, description: 'A connection_id from GET /v1/dns-connections.' },
      {
        name: 'dry_run',
        in: 'body',
        type: 'boolean',
        required: true,
        description: 'true: answer the change without making it (try this first); false: make it.',
      },
    ],
    // Destructive: a stricter policy sends failing mail to spam or refuses it; a dry run changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'get_dmarc_ramp_settings',
    listener: 'api',
    method: 'GET',
    path: '/v1/dmarc-ramp/settings',
    document: 'dmarc-ramp-settings',
    unwrap: 'dmarcRampSettings',
    scope: 'read',
    rateLimit: 'read',
    summary: "Whether your account's DMARC ramp advances (and undoes an advance that hurts mail) on its own, once a day.",
    params: [],
    annotations: READING,
  },
  {
    name: 'set_dmarc_ramp_settings',
    listener: 'api',
    method: 'PUT',
    path: '/v1/dmarc-ramp/settings',
    document: 'set-dmarc-ramp-settings',
    unwrap: 'setDmarcRampSettings',
    scope: 'write',
    rateLimit: 'change',
    summary:
      'Turns the automatic DMARC ramp on or off: {"auto_advance": true}. On, each proved domain with a DNS connection advances when ready and goes back a step when mail suffers, through the journaled apply, with domain.dmarc_advanced and domain.dmarc_reverted events.',
    params: [
      { name: 'auto_advance', in: 'body', type: 'boolean', required: true, description: 'true: advance and undo on its own; false: only when you ask.' },
    ],
    annotations: REPLACING,
  },
] as const satisfies readonly OperationRow[];

export const operationTable: readonly OperationRow[] = [
  ...accountReadingRows,
  ...accountChangingRows,
  ...orderingRows,
  ...domainVerificationRows,
  ...domainSetupRows,
  ...publicCheckRows,
  ...webhookRows,
  ...alertRecipientRows,
  ...dnsConnectionRows,
  ...moneyRows,
  ...mailboxRows,
  ...reportRows,
  ...dmarcRampRows,
];
