/**
 * The wire, recorded: every operation of operations/operation-table.ts called through its three doors
 * (REST, MCP's tools/call, /graphql) against one running service holding the demo account
 * (admin/seed-demo.ts), its answers (status, content type, body) kept in test/wire/golden/, one
 * pretty-printed JSON file per operation and door (`<operation>.<door>.json`). Any change of an answer
 * fails the test with a diff of that file. Re-record after an intended change (docs/testing.md):
 *
 *   UPDATE_WIRE=1 npx vitest run test/wire/wire-golden.test.ts
 *
 * Which calls: every read-only operation (annotations.readOnlyHint) with valid input on the demo data,
 * and every operation that changes something only with input it refuses (a record that does not
 * exist, a body without its required fields), each asserted to be refused (a 4xx, an MCP tool error, GraphQL errors).
 * So no call changes the account, the order of the calls does not matter to any answer, and one
 * service serves the whole file. (Changes made for real are covered by the feature tests.)
 *
 * /graphql: the query sent is the one recorded in the golden file (the operation document at the
 * time of recording), as a client keeps sending the query it wrote: a later rewrite of
 * operations/documents/ must still answer that query the same. UPDATE_WIRE=1 keeps those queries;
 * UPDATE_WIRE=queries takes them anew from the current documents.
 *
 * Deterministic by construction rather than by normalizing: the process's Date is fixed
 * (vi.useFakeTimers faking Date only; timers run for real) at FIXED_NOW before the demo account is
 * seeded, so every time and every "this month" sum is the same on every run; each call sends its own
 * X-Request-Id (the service keeps a caller's), so error bodies carry that instead of a random one; live
 * checks read the in-process DNS server (test/support/dns-server.ts, fixture-zone.ts), and RDAP, WHOIS
 * and the Google tenancy probe are pointed where they fail the same way at once.
 *
 * Normalized, and only these (each genuinely differs from run to run):
 * - the demo account's random tag in its domain names, order references, invoice numbers and
 *   referral code (admin/seed-demo.ts draws it per account; upper or lower case): `<tag>`;
 * - the ports the two listeners picked (port 0): `127.0.0.1:<api>` / `127.0.0.1:<public>`;
 * - any remaining UUID (none today: a request id the service made up would be one): `<uuid>`;
 * - event ids (`evt_` and 24 random hex digits, resolvers/events): `evt_<id>`. Reading the demo's
 *   seeded `live` domain whose records the zone lacks records a `domain.needs_attention` event.
 * Nothing else: an answer whose byte changes otherwise fails.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationTable, type OperationRow } from '../../operations/operation-table.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { fixtureZone, orderingDemoZone, orderableDemoDomains } from '../support/fixture-zone.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** UPDATE_WIRE=1 rewrites the golden files (keeping each recorded /graphql query); UPDATE_WIRE=queries also retakes the queries from operations/documents/. */
const UPDATE = process.env.UPDATE_WIRE === '1' || process.env.UPDATE_WIRE === 'queries';
const RETAKE_QUERIES = process.env.UPDATE_WIRE === 'queries';
/** The service's clock for the whole file: mid-month, midday UTC, so no day or month boundary is near. */
const FIXED_NOW = new Date('2026-06-17T12:00:00.000Z');
const GOLDEN_DIR = fileURLToPath(new URL('./golden/', import.meta.url));
const DOORS = ['rest', 'mcp', 'graphql'] as const;
type Door = (typeof DOORS)[number];

/** The input of one call: the row's params by name, and the JSON body (snake_case, as REST takes it). */
interface Case {
  readonly params?: Record<string, string | number | boolean>;
  readonly body?: Record<string, unknown>;
  /** GraphQL's own spelling of a param, where it differs from the documented one (enum values). */
  readonly graphqlParams?: Record<string, unknown>;
}

/** Values that exist on no account: what the refusals of the changing operations are asked with. */
const NONE = { id: 999_999, domain: 'not-yours.test', email: 'nobody@not-yours.test', subscription: 'sub_none' };

/**
 * One case per operation. Read-only ones get valid input on the demo data (`tag` is the demo
 * account's); the others get input they refuse. A row without a case fails the test: add one.
 */
function casesFor(tag: string): Record<string, Case> {
  const acme = `acme-mail-${tag}.com`;
  return {
    // Reads of the account.
    get_dashboard: {},
    list_orders: { params: { limit: 2 } },
    get_billing: {},
    get_deliverability: { params: { period: '30d' }, graphqlParams: { period: 'P30D' } },
    list_workspaces: {},
    list_requests: {},
    get_referrals: {},
    list_catalogue: {},
    check_payment_method: {},
    get_domain_verification: {},
    get_domain_setup: { params: { domain: acme } },
    get_domain_setup_zone: { params: { domain: acme } },
    list_domain_setup_applies: { params: { domain: acme } },
    list_domain_mailboxes: { params: { domain: acme } },
    list_webhooks: {},
    list_webhook_deliveries: { params: { webhook_id: NONE.id } },
    list_events: {},
    get_alert_recipients: {},
    get_alert_settings: {},
    get_dmarc_ramp: { params: { domain: acme } },
    get_dmarc_ramp_settings: {},
    list_dns_connections: {},
    list_reports: {},
    get_domain_sources: { params: { domain: acme } },
    get_report_days: {},
    get_tls_report_days: { params: { period: '30d' } },
    preview_order: {
      body: {
        order: {
          sku: 'google-inbox-unwarmed',
          promotion_code: 'WELCOME20',
          domains: [{ domain: orderableDemoDomains[0], mailboxes: [{ first_name: 'Ada', last_name: 'Lovelace', local_part: 'ada' }] }],
        },
      },
    },
    // Public checks, on the fixture zone.
    check_deliverability: { params: { domain: 'good.test' } },
    check_spf: { params: { domain: 'good.test', ip: '198.51.100.7' } },
    check_dkim: { params: { domain: 'good.test', selector: 'google' } },
    check_dmarc: { params: { domain: 'good.test' } },
    check_bimi: { params: { domain: 'good.test' } },
    check_mta_sts: { params: { domain: 'good.test' } },
    check_dns: { params: { domain: 'good.test', type: 'MX' } },
    check_blacklist: { params: { input: '192.0.2.10' } },
    check_uribl: { params: { domains: 'good.test' } },
    check_nameservers: { params: { domains: 'good.test,bad.test' } },
    check_domain_expiry: { params: { domain: 'good.test' } },
    check_provider_domain: { params: { domain: 'good.test' } },
    check_cname: { params: { host: 'track.good.test', expected: 'links.mailer.test' } },
    verify_email: { params: { emails: 'alex@good.test,info@bad.test' } },
    segment_esp: { params: { domains: 'good.test,bad.test' } },
    // Changes, refused: a record that is not there, or a body missing what it needs.
    create_workspace: { body: {} },
    rename_workspace: { params: { workspace_id: NONE.id }, body: { name: 'Renamed' } },
    delete_workspace: { params: { workspace_id: NONE.id } },
    file_domain: { params: { domain: NONE.domain }, body: { workspace_id: null } },
    set_sequencer: { params: { subscription_id: NONE.subscription }, body: { sequencer: 'instantly' } },
    set_monitors: { params: { subscription_id: NONE.subscription }, body: {} },
    raise_request: { body: {} },
    place_order: { body: {} },
    reinstate_order: { params: { order_id: NONE.id } },
    create_card_setup_link: { body: { return_url: 'not a url' } },
    verify_domain: { params: { domain: 'not a domain' } },
    check_domain_setup: { params: { domain: NONE.domain } },
    apply_domain_setup: { params: { domain: NONE.domain, connection_id: NONE.id, dry_run: true } },
    revert_domain_setup_apply: { params: { domain: NONE.domain, apply_id: NONE.id, dry_run: true } },
    advance_dmarc_ramp: { params: { domain: NONE.domain, connection_id: NONE.id, dry_run: true } },
    set_dmarc_ramp_settings: { body: {} },
    create_webhook: { body: {} },
    update_webhook: { params: { webhook_id: NONE.id }, body: { enabled: false } },
    delete_webhook: { params: { webhook_id: NONE.id } },
    send_test_webhook: { params: { webhook_id: NONE.id } },
    resend_webhook_delivery: { params: { webhook_id: NONE.id, delivery_id: NONE.id } },
    set_alert_recipients: { body: {} },
    set_alert_settings: { body: { weekly_digest: 'often' } },
    create_dns_connection: { body: {} },
    delete_dns_connection: { params: { connection_id: NONE.id } },
    request_plan: { body: {} },
    pay_invoices: { body: { invoices: ['INV-NONE'] } },
    reveal_mailbox_credentials: { params: { domain: NONE.domain } },
    reset_mailbox_password: { params: { email: NONE.email } },
    export_order_mailboxes: { params: { subscription_id: NONE.subscription } },
    upload_report: { body: {} },
  };
}

interface Recorded {
  readonly request: Record<string, unknown>;
  readonly status: number;
  readonly content_type: string | null;
  readonly body: unknown;
}

let dns: TestDnsServer;
let service: TestService;
let tag: string;
let cases: Record<string, Case>;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: FIXED_NOW });
  if (UPDATE) {
    // Re-recording: the files of operations no longer in the table go; the rest are written anew below.
    mkdirSync(GOLDEN_DIR, { recursive: true });
    const kept = new Set(operationTable.flatMap((row) => DOORS.map((door) => `${row.name}.${door}.json`)));
    for (const file of readdirSync(GOLDEN_DIR)) if (!kept.has(file)) rmSync(`${GOLDEN_DIR}${file}`);
  }
  dns = await startTestDnsServer({ records: [...fixtureZone, ...orderingDemoZone] });
  const high = 1_000_000;
  service = await startTestService({
    env: {
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '5000',
      DNS_TRIES: '1',
      // Nothing answers on port 9: RDAP and WHOIS fail at once, the same way every run.
      RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
      WHOIS_SERVER: '127.0.0.1:9',
    },
    googleTenancy: { probe: async () => 'unknown' },
    rateLimits: { public: high, read: high, change: high, order: high },
  });
  const domain = await service.services.db
    .selectFrom('domains')
    .select('domain')
    .where('account_id', '=', service.demo.accountId)
    .where('domain', 'like', 'acme-mail-%')
    .executeTakeFirstOrThrow();
  tag = /^acme-mail-([0-9a-f]{6})\.com$/.exec(domain.domain)![1]!;
  // The seed leaves the folder's created_at to a column default, now() by the database's clock: on
  // PostgreSQL the server's real time, which the fixed Date does not reach (PGlite's clock is this
  // process's Date). Set as PGlite has it, so both databases answer the same.
  await sql`update workspaces set created_at = ${FIXED_NOW} where account_id = ${service.demo.accountId}`.execute(service.services.db);
  cases = casesFor(tag);
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
  vi.useRealTimers();
});

/** The run-dependent parts of a text, as the header comment lists them. */
function normalize(text: string): string {
  return text
    .replace(new RegExp(tag, 'gi'), '<tag>')
    .replaceAll(new URL(service.apiUrl).host, '127.0.0.1:<api>')
    .replaceAll(new URL(service.publicUrl).host, '127.0.0.1:<public>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\bevt_[0-9a-f]{24}\b/g, 'evt_<id>');
}

/**
 * A body as kept: JSON parsed (key order kept) with `body_format` saying how it was written, so a
 * change of layout fails too; MCP's text content holding JSON is parsed the same way, for a readable
 * diff; any other text as it is.
 */
function keptBody(text: string): { body: unknown; body_format: string } {
  const parsed = parseJson(text);
  if (parsed === undefined) return { body: text, body_format: 'text' };
  const value = unpackMcpText(parsed.value);
  return { body: value, body_format: parsed.format };
}

function parseJson(text: string): { value: unknown; format: string } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    const format = JSON.stringify(value) === text ? 'json' : JSON.stringify(value, null, 2) === text ? 'json-pretty' : 'json-other-layout';
    return { value, format };
  } catch {
    return undefined;
  }
}

function unpackMcpText(value: unknown): unknown {
  const content = (value as { result?: { content?: { type: string; text?: string }[] } })?.result?.content;
  if (!Array.isArray(content)) return value;
  const result = (value as { result: Record<string, unknown> }).result;
  const unpacked = content.map((item) => {
    if (item.type !== 'text' || typeof item.text !== 'string') return item;
    const inner = parseJson(item.text);
    return inner === undefined ? item : { type: item.type, text_json: inner.value, text_format: inner.format };
  });
  return { ...(value as object), result: { ...result, content: unpacked } };
}

/** GraphQL variables from a case: camelCase names, whole numbers as numbers, the body under the row's variable. */
function graphqlVariables(row: OperationRow, c: Case): Record<string, unknown> {
  const camel = (name: string) => name.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
  const camelize = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(camelize)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelize(v)]))
        : value;
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(c.params ?? {})) {
    const spec = row.params.find((p) => p.name === name);
    variables[camel(name)] = spec?.type === 'integer' ? Number(value) : spec?.list ? String(value).split(',') : value;
  }
  Object.assign(variables, c.graphqlParams ?? {});
  if (row.bodyVariable) {
    const body = c.body ?? {};
    Object.assign(variables, camelize(row.bodyVariable in body && Object.keys(body).length === 1 ? body : { [row.bodyVariable]: body }));
  }
  return variables;
}

function goldenPath(row: OperationRow, door: Door): string {
  return `${GOLDEN_DIR}${row.name}.${door}.json`;
}

function goldenText(row: OperationRow, door: Door): string | undefined {
  try {
    return readFileSync(goldenPath(row, door), 'utf8');
  } catch {
    return undefined;
  }
}

function readGolden(row: OperationRow, door: Door): Recorded | undefined {
  const text = goldenText(row, door);
  return text === undefined ? undefined : (JSON.parse(text) as Recorded);
}

async function call(row: OperationRow, door: Door, c: Case): Promise<Recorded> {
  const key = row.listener === 'api' ? service.demo.key : null;
  const base = row.listener === 'api' ? service.apiUrl : service.publicUrl;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': `wire-${row.name}-${door}` };
  if (key) headers.authorization = `Bearer ${key}`;
  let request: Record<string, unknown>;
  let response: Response;
  if (door === 'rest') {
    let path = row.path;
    const query = new URLSearchParams();
    const body: Record<string, unknown> = { ...c.body };
    for (const param of row.params) {
      const value = c.params?.[param.name];
      if (value === undefined) continue;
      if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(String(value)));
      else if (param.in === 'query') query.set(param.name, String(value));
      else body[param.name] = value;
    }
    const url = `${path}${query.size ? `?${query}` : ''}`;
    const sendsBody = row.method !== 'GET' && row.method !== 'DELETE';
    const bodyText = sendsBody ? JSON.stringify(row.bodyVariable && c.body && row.bodyVariable in c.body ? c.body[row.bodyVariable] : body) : undefined;
    request = { method: row.method, url, ...(bodyText === undefined ? {} : { body: JSON.parse(bodyText) as unknown }) };
    response = await fetch(base + url, { method: row.method, headers, ...(bodyText === undefined ? {} : { body: bodyText }) });
  } else if (door === 'mcp') {
    const flatBody = row.bodyVariable && c.body && row.bodyVariable in c.body ? (c.body[row.bodyVariable] as Record<string, unknown>) : c.body;
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: row.name, arguments: { ...c.params, ...flatBody } } };
    request = { method: 'POST', url: '/mcp', body: message };
    response = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { ...headers, accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
    });
  } else {
    // The query is kept as its lines, for a readable diff.
    const recorded = RETAKE_QUERIES ? undefined : (readGolden(row, door)?.request.body as { query: string[] } | undefined);
    const query =
      recorded?.query.join('\n') ?? readFileSync(fileURLToPath(new URL(`../../operations/documents/${row.document}.graphql`, import.meta.url)), 'utf8');
    const variables = graphqlVariables(row, c);
    const body = JSON.stringify({ query, variables });
    request = { method: 'POST', url: '/graphql', body: { query: query.split('\n'), variables } };
    response = await fetch(`${base}/graphql`, { method: 'POST', headers, body });
  }
  const text = normalize(await response.text());
  return {
    request: JSON.parse(normalize(JSON.stringify(request))) as Record<string, unknown>,
    status: response.status,
    content_type: response.headers.get('content-type'),
    ...keptBody(text),
  };
}

function refused(recorded: Recorded, door: Door): boolean {
  if (door === 'mcp') return recorded.status >= 400 || (recorded.body as { result?: { isError?: boolean } }).result?.isError === true;
  if (door === 'graphql') return recorded.status >= 400 || Array.isArray((recorded.body as { errors?: unknown }).errors);
  return recorded.status >= 400 && recorded.status < 500;
}

describe('every operation answers byte for byte as recorded (test/wire/golden/)', () => {
  it('has a case for every row of the operation table, and no case for anything else', () => {
    expect(operationTable.filter((row) => !(row.name in cases)).map((row) => row.name)).toEqual([]);
    expect(Object.keys(cases).filter((name) => !operationTable.some((row) => row.name === name))).toEqual([]);
  });

  for (const row of operationTable) {
    it.each(DOORS)(`${row.name} through %s`, async (door) => {
      const c = cases[row.name];
      expect(c, `no case for ${row.name}`).toBeDefined();
      // Events recorded during the file (reading the seeded live domain records domain.needs_attention)
      // take created_at from the database's clock, as the folders do: pinned as PGlite has it.
      if (row.name === 'list_events')
        await sql`update events set created_at = ${FIXED_NOW} where account_id = ${service.demo.accountId}`.execute(service.services.db);
      const recorded = await call(row, door, c!);
      const problem = !row.annotations.readOnlyHint
        ? refused(recorded, door)
          ? null
          : 'it changes something, so it is called only with input it refuses; this answer is no refusal'
        : door !== 'graphql' && recorded.status >= 500
          ? `a read answered ${recorded.status}`
          : null;
      expect(problem, `${row.name} through ${door}: ${JSON.stringify(recorded.body).slice(0, 300)}`).toBeNull();
      const text = `${JSON.stringify(recorded, null, 2)}\n`;
      if (UPDATE) writeFileSync(goldenPath(row, door), text);
      const golden = goldenText(row, door);
      expect(golden, `No golden file ${row.name}.${door}.json: record it with UPDATE_WIRE=1 (docs/testing.md).`).toBeDefined();
      expect(text).toBe(golden);
    });
  }

  it('keeps a golden file for each operation and door, and none for anything else', () => {
    const expected = operationTable.flatMap((row) => DOORS.map((door) => `${row.name}.${door}.json`)).sort();
    expect(readdirSync(GOLDEN_DIR).sort()).toEqual(expected);
  });
});
