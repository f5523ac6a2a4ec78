import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { graphql } from '../support/test-service.js';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';
import { waitFor } from '../jobs/webhook-receiver.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { decryptSecret } from '../../resolvers/secrets/encrypt-secret.js';
import { mailboxSealPurpose } from '../../resolvers/mailboxes/mailbox-passwords.js';
import type { SandboxAdapter } from '../../clients/mailboxes/provisioning-adapter.js';
import { SEQUENCERS } from '../../resolvers/changes/sequencers.js';

/**
 * Mailboxes behind an ordered domain through every door, with the jobs on: the sandbox build makes
 * them (pending → active) with a generated password each, sealed in the database; lists never show
 * a password; credentials are revealed on request (scope write, an event without the password);
 * a reset replaces the password and the old one is never shown again; nothing of it reaches the log.
 */
const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));
const [first, second] = [FREE_DOMAINS[0]!, FREE_DOMAINS[1]!];
let h: OrderingHarness;
let mcp: Client;
const logged: string[] = [];
const OUTBOX = `/tmp/mailboxes-api-outbox-${process.pid}`;

const get = async (path: string, key?: string) => {
  const response = await h.service.api(path, key ? { key } : {});
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as any };
};
const sandbox = () => h.service.jobs.environment.adapter as SandboxAdapter;
async function sealedPassword(email: string): Promise<string> {
  const [local, domain] = email.split('@');
  const row = await h.service.services.db
    .selectFrom('mailboxes')
    .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
    .select(['mailboxes.id', 'mailboxes.password_sealed'])
    .where('domains.domain', '=', domain!)
    .where('mailboxes.local_part', '=', local!)
    .executeTakeFirstOrThrow();
  expect(row.password_sealed).toMatch(/^v1\./);
  return decryptSecret(h.service.services.secretsKey, row.password_sealed!, mailboxSealPurpose(row.id));
}
/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) field += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}
const asRecords = (rows: string[][]) => rows.slice(1).map((r) => Object.fromEntries(rows[0]!.map((name, i) => [name, r[i]])));

/**
 * Each export format's columns and what each holds, written out here on their own (docs/mailboxes.md
 * lists the same), so a changed column in the code fails this test rather than passing with it.
 */
interface Exported {
  readonly email: string;
  readonly first: string;
  readonly last: string;
  readonly password: string;
}
type Spec = readonly (readonly [string, (m: Exported) => string])[];
const e = (m: Exported) => m.email;
const pw = (m: Exported) => m.password;
const first_ = (m: Exported) => m.first;
const last_ = (m: Exported) => m.last;
const full = (m: Exported) => `${m.first} ${m.last}`;
const is = (value: string) => () => value;
const GENERIC: Spec = [
  ['email', e],
  ['first_name', first_],
  ['last_name', last_],
  ['username', e],
  ['password', pw],
  ['imap_host', is('imap.gmail.com')],
  ['imap_port', is('993')],
  ['imap_security', is('ssl')],
  ['smtp_host', is('smtp.gmail.com')],
  ['smtp_port', is('587')],
  ['smtp_security', is('starttls')],
];
const INSTANTLY_LIKE: Spec = [
  ['Email', e],
  ['First Name', first_],
  ['Last Name', last_],
  ['IMAP Username', e],
  ['IMAP Password', pw],
  ['IMAP Host', is('imap.gmail.com')],
  ['IMAP Port', is('993')],
  ['SMTP Username', e],
  ['SMTP Password', pw],
  ['SMTP Host', is('smtp.gmail.com')],
  ['SMTP Port', is('587')],
];
const FORMAT_SPECS: Record<string, Spec> = {
  generic: GENERIC,
  instantly: INSTANTLY_LIKE,
  smartlead: [
    ['from_name', full],
    ['from_email', e],
    ['user_name', e],
    ['password', pw],
    ['smtp_host', is('smtp.gmail.com')],
    ['smtp_port', is('587')],
    ['imap_host', is('imap.gmail.com')],
    ['imap_port', is('993')],
  ],
  lemlist: GENERIC,
  apollo: GENERIC,
  reply: [
    ['Email', e],
    ['Sender Name', full],
    ['SMTP Host', is('smtp.gmail.com')],
    ['SMTP Port', is('587')],
    ['SMTP Login', e],
    ['SMTP Password', pw],
    ['SMTP SSL', is('false')],
    ['IMAP Host', is('imap.gmail.com')],
    ['IMAP Port', is('993')],
    ['IMAP Login', e],
    ['IMAP Password', pw],
    ['IMAP SSL', is('true')],
    ['Daily Limit', is('30')],
  ],
  woodpecker: [
    ['email', e],
    ['from_name', full],
    ['smtp_server', is('smtp.gmail.com')],
    ['smtp_port', is('587')],
    ['smtp_login', e],
    ['smtp_password', pw],
    ['imap_server', is('imap.gmail.com')],
    ['imap_port', is('993')],
    ['imap_login', e],
    ['imap_password', pw],
    ['daily_limit', is('30')],
  ],
  saleshandy: [
    ['First Name', first_],
    ['Last Name', last_],
    ['Email', e],
    ['SMTP Username', e],
    ['SMTP Password', pw],
    ['SMTP Host', is('smtp.gmail.com')],
    ['SMTP Port', is('587')],
    ['SMTP Encryption', is('TLS')],
    ['IMAP Username', e],
    ['IMAP Password', pw],
    ['IMAP Host', is('imap.gmail.com')],
    ['IMAP Port', is('993')],
    ['IMAP Encryption', is('SSL')],
    ['Daily Sending Limit', is('30')],
  ],
  outreach: GENERIC,
  salesloft: GENERIC,
  hubspot: GENERIC,
  mailshake: GENERIC,
  quickmail: [
    ['Email', e],
    ['First Name', first_],
    ['Last Name', last_],
    ['SMTP Host', is('smtp.gmail.com')],
    ['SMTP Port', is('587')],
    ['SMTP Username', e],
    ['SMTP Password', pw],
    ['IMAP Host', is('imap.gmail.com')],
    ['IMAP Port', is('993')],
    ['IMAP Username', e],
    ['IMAP Password', pw],
  ],
  emelia: [
    ['email', e],
    ['firstName', first_],
    ['lastName', last_],
    ['smtpHost', is('smtp.gmail.com')],
    ['smtpPort', is('587')],
    ['smtpLogin', e],
    ['smtpPassword', pw],
    ['imapHost', is('imap.gmail.com')],
    ['imapPort', is('993')],
    ['imapLogin', e],
    ['imapPassword', pw],
    ['dailyLimit', is('30')],
    ['warmup', is('true')],
  ],
  plusvibe: [...INSTANTLY_LIKE, ['Daily Limit', is('30')], ['Warmup Enabled', is('TRUE')]],
};

function toolAnswer(result: Awaited<ReturnType<Client['callTool']>>): any {
  const content: unknown = Array.isArray(result.content) ? result.content[0] : undefined;
  return JSON.parse(content && typeof content === 'object' && 'text' in content && typeof content.text === 'string' ? content.text : 'null');
}
function svc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: h.service.demo.key };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SVC, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  // Every line the service logs (LOG_LEVEL=info here) is kept, to be searched for passwords.
  // (kept, not printed: the test's own output stays quiet)
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
  }
  h = await startOrderingService({
    env: {
      JOBS: 'on',
      LOG_LEVEL: 'info',
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      SANDBOX_BUILD_DELAY_MS: '50',
      JOBS_POLL_INTERVAL_MS: '50',
      JOBS_SWEEP_INTERVAL_MS: '300',
      ALERT_OUTBOX_DIR: OUTBOX,
    },
  });
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
  const placed = await postJson(h.service, '/v1/orders', orderBody([first, second], 2), { headers: { 'idempotency-key': 'mailboxes-0001' } });
  if (placed.status !== 200) throw new Error(`the order was refused: ${JSON.stringify(placed.body)}`);
  await waitFor('the mailboxes made by the build', async () => {
    const rows = await h.service.services.db
      .selectFrom('mailboxes')
      .innerJoin('domains', 'domains.id', 'mailboxes.domain_id')
      .select('status')
      .where('domains.domain', 'in', [first, second])
      .execute();
    return rows.length === 4 && rows.every((r) => r.status === 'active');
  });
  mcp = new Client({ name: 'mailboxes-test', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${h.service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${h.service.demo.key}` } } }),
  );
}, 90_000);
afterAll(async () => {
  await mcp?.close();
  await h?.close();
  vi.restoreAllMocks();
  rmSync(OUTBOX, { recursive: true, force: true });
});

describe('mailboxes of a domain', () => {
  it('REST lists them with their status and no password; the build gave each a sealed password the provider holds', async () => {
    const listed = await get(`/v1/portal/domains/${first}/mailboxes`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      domain: first,
      mailboxes: [
        { email: `alex@${first}`, first_name: 'Alex', last_name: 'Morgan', status: 'active' },
        { email: `sam@${first}`, first_name: 'Sam', last_name: 'Rivera', status: 'active' },
      ],
    });
    const password = await sealedPassword(`alex@${first}`);
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(listed.text).not.toContain(password);
    expect(sandbox().made.get(`alex@${first}`)).toEqual({ password });
  });

  it('a domain not on the orders is a 404 naming where to look; a read key may list', async () => {
    // (FORWARD_PORT unset here: no forwarding listener.)
    expect(h.service.forwardUrl).toBeNull();
    const missing = await get('/v1/portal/domains/not-mine.com/mailboxes');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'domain_not_found', detail: expect.stringMatching(/dashboard/) });
    const { key } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    expect((await get(`/v1/portal/domains/${first}/mailboxes`, key)).status).toBe(200);
  });

  it('GraphQL and MCP answer the same list; the CLI reads it with get', async () => {
    const gql = await graphql(h.service, 'query ($d: String!) { domainMailboxes(domain: $d) { domain mailboxes { email firstName lastName status } } }', {
      d: second,
    });
    expect(gql.body.data.domainMailboxes.mailboxes).toEqual([
      { email: `alex@${second}`, firstName: 'Alex', lastName: 'Morgan', status: 'active' },
      { email: `sam@${second}`, firstName: 'Sam', lastName: 'Rivera', status: 'active' },
    ]);
    const tool = toolAnswer(await mcp.callTool({ name: 'list_domain_mailboxes', arguments: { domain: second } }));
    expect(tool).toEqual((await get(`/v1/portal/domains/${second}/mailboxes`)).body);
    const cli = await svc(['get', `/v1/portal/domains/${second}/mailboxes`]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(tool);
  });
});

describe('credentials', () => {
  it('are revealed on REST with scope write only, each reveal an event without the password', async () => {
    const { key: readKey } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    const refused = await postJson(h.service, `/v1/portal/domains/${first}/mailboxes/credentials`, {}, { key: readKey });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write/);

    const shown = await postJson(h.service, `/v1/portal/domains/${first}/mailboxes/credentials`, {});
    expect(shown.status).toBe(200);
    const password = await sealedPassword(`alex@${first}`);
    expect(shown.body.mailboxes[0]).toEqual({
      email: `alex@${first}`,
      first_name: 'Alex',
      last_name: 'Morgan',
      status: 'active',
      username: `alex@${first}`,
      password,
      imap_host: 'imap.gmail.com',
      imap_port: 993,
      smtp_host: 'smtp.gmail.com',
      smtp_port: 587,
    });
    const events = await h.service.services.db.selectFrom('events').select(['type', 'data']).where('type', '=', 'mailbox.credentials_revealed').execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ domain: first, mailboxes: [`alex@${first}`, `sam@${first}`], door: 'rest' });
    expect(events[0]!.data).not.toContain(password);
  });

  it('a reset gives a new password at the provider; the old one is never shown again, on REST, GraphQL, MCP and the CLI', async () => {
    const email = `sam@${first}`;
    const old = await sealedPassword(email);
    const reset = await postJson(h.service, `/v1/portal/mailboxes/${email}/password`, {});
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ email, status: 'active', password: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    expect(reset.body.password).not.toBe(old);
    expect(await sealedPassword(email)).toBe(reset.body.password);
    expect(sandbox().made.get(email)).toEqual({ password: reset.body.password });

    const gqlShown = await graphql(h.service, 'mutation ($d: String!) { revealMailboxCredentials(domain: $d) { mailboxes { email password imapHost } } }', {
      d: first,
    });
    const gqlSam = gqlShown.body.data.revealMailboxCredentials.mailboxes.find((m: any) => m.email === email);
    expect(gqlSam).toEqual({ email, password: reset.body.password, imapHost: 'imap.gmail.com' });
    expect(JSON.stringify(gqlShown.body)).not.toContain(old);

    const gqlReset = await graphql(h.service, 'mutation ($e: String!) { resetMailboxPassword(email: $e) { email password } }', { e: email });
    const third = gqlReset.body.data.resetMailboxPassword.password;
    expect(third).not.toBe(reset.body.password);

    const tool = toolAnswer(await mcp.callTool({ name: 'reveal_mailbox_credentials', arguments: { domain: first } }));
    expect(tool.mailboxes.find((m: any) => m.email === email).password).toBe(third);
    const mcpReset = toolAnswer(await mcp.callTool({ name: 'reset_mailbox_password', arguments: { email } }));
    expect(mcpReset.password).not.toBe(third);

    const cli = await svc(['post', `/v1/portal/domains/${first}/mailboxes/credentials`]);
    expect(cli.code).toBe(0);
    const cliSam = JSON.parse(cli.stdout).mailboxes.find((m: any) => m.email === email);
    expect(cliSam.password).toBe(mcpReset.password);
    expect(cli.stdout).not.toContain(old);
    expect(cli.stdout).not.toContain(third);

    const resets = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.password_reset').execute();
    expect(resets).toHaveLength(3);
    for (const e of resets) for (const p of [old, reset.body.password, third, mcpReset.password]) expect(e.data).not.toContain(p);
  });

  it('a reset validates its body like every other call: malformed JSON, a non-object or an unknown field is a 4xx and nothing is reset', async () => {
    const email = `alex@${second}`;
    const old = await sealedPassword(email);
    const malformed = await postJson(h.service, `/v1/portal/mailboxes/${email}/password`, '{"password": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json', detail: expect.stringMatching(/takes no body/) });
    const unknown = await postJson(h.service, `/v1/portal/mailboxes/${email}/password`, { password: 'chosen-by-me-123' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'unknown_field', detail: expect.stringMatching(/Remove "password"/) });
    const notObject = await postJson(h.service, `/v1/portal/mailboxes/${email}/password`, '[]');
    expect(notObject.status).toBe(400);
    expect(await sealedPassword(email)).toBe(old);
    // No body, or {}, still resets.
    const reset = await h.service.api(`/v1/portal/mailboxes/${email}/password`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(await sealedPassword(email)).not.toBe(old);
  });

  it('refuses a malformed address (400), a mailbox not on the orders (404), another account’s (404), a stopped order (409)', async () => {
    const bad = await postJson(h.service, '/v1/portal/mailboxes/nobody/password', {});
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_email', detail: expect.stringMatching(/mailbox address/) });
    const unknown = await postJson(h.service, `/v1/portal/mailboxes/zed@${first}/password`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('mailbox_not_found');
    const other = await h.service.seedAccount();
    const theirs = await postJson(h.service, `/v1/portal/mailboxes/alex@${first}/password`, {}, { key: other.key });
    expect(theirs.status).toBe(404);
    expect((await postJson(h.service, `/v1/portal/domains/${first}/mailboxes/credentials`, {}, { key: other.key })).status).toBe(404);

    const order = await h.service.services.db.selectFrom('domains').select('order_id').where('domain', '=', second).executeTakeFirstOrThrow();
    await h.service.services.db.updateTable('orders').set({ status: 'unpaid' }).where('id', '=', order.order_id).execute();
    try {
      const stopped = await postJson(h.service, `/v1/portal/domains/${second}/mailboxes/credentials`, {});
      expect(stopped.status).toBe(409);
      expect(stopped.body).toMatchObject({ code: 'order_suspended', detail: expect.stringMatching(/pay its open invoice/) });
    } finally {
      await h.service.services.db.updateTable('orders').set({ status: 'active' }).where('id', '=', order.order_id).execute();
    }
  });

  it('no password ever reached the log', async () => {
    const rows = await h.service.services.db.selectFrom('mailboxes').select(['id', 'password_sealed']).where('password_sealed', 'is not', null).execute();
    const passwords = rows.map((r) => decryptSecret(h.service.services.secretsKey, r.password_sealed!, mailboxSealPurpose(r.id)));
    expect(passwords).toHaveLength(4);
    const all = logged.join('');
    expect(all.length).toBeGreaterThan(0);
    for (const p of passwords) expect(all).not.toContain(p);
  });
});

describe('export to the sequencer', () => {
  let subscriptionId: string;
  const exportOf = async (query: string, key?: string) => {
    const response = await h.service.api(`/v1/portal/orders/${subscriptionId}/export${query}`, key ? { key } : {});
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };
  const passwords = async () =>
    Object.fromEntries(await Promise.all([first, second].flatMap((d) => ['alex', 'sam'].map(async (l) => [`${l}@${d}`, await sealedPassword(`${l}@${d}`)]))));

  beforeAll(async () => {
    const order = await h.service.services.db
      .selectFrom('orders')
      .innerJoin('domains', 'domains.order_id', 'orders.id')
      .select('orders.subscription_id')
      .where('domains.domain', '=', first)
      .executeTakeFirstOrThrow();
    subscriptionId = order.subscription_id;
  });

  it('without a sequencer the default is the generic IMAP/SMTP CSV, every active mailbox with its password, parsed back', async () => {
    const csv = await exportOf('');
    expect(csv.status).toBe(200);
    expect(csv.type).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual([
      'email',
      'first_name',
      'last_name',
      'username',
      'password',
      'imap_host',
      'imap_port',
      'imap_security',
      'smtp_host',
      'smtp_port',
      'smtp_security',
    ]);
    const known = await passwords();
    expect(asRecords(rows)).toEqual(
      Object.entries(known).map(([email, password]) => ({
        email,
        first_name: email.startsWith('alex') ? 'Alex' : 'Sam',
        last_name: email.startsWith('alex') ? 'Morgan' : 'Rivera',
        username: email,
        password,
        imap_host: 'imap.gmail.com',
        imap_port: '993',
        imap_security: 'ssl',
        smtp_host: 'smtp.gmail.com',
        smtp_port: '587',
        smtp_security: 'starttls',
      })),
    );
    const events = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.credentials_revealed').execute();
    const exported = events.map((e) => JSON.parse(e.data)).filter((d) => d.export_format === 'generic');
    expect(exported).toHaveLength(1);
    for (const e of events) for (const p of Object.values(known)) expect(e.data).not.toContain(p);
  });

  it('format=instantly and format=smartlead answer their own columns; the order’s sequencer picks the default', async () => {
    const known = await passwords();
    const instantly = asRecords(parseCsv((await exportOf('?format=instantly')).text));
    expect(instantly).toHaveLength(4);
    expect(instantly[0]).toEqual({
      Email: `alex@${first}`,
      'First Name': 'Alex',
      'Last Name': 'Morgan',
      'IMAP Username': `alex@${first}`,
      'IMAP Password': known[`alex@${first}`],
      'IMAP Host': 'imap.gmail.com',
      'IMAP Port': '993',
      'SMTP Username': `alex@${first}`,
      'SMTP Password': known[`alex@${first}`],
      'SMTP Host': 'smtp.gmail.com',
      'SMTP Port': '587',
    });
    const smartleadRows = parseCsv((await exportOf('?format=SmartLead')).text);
    expect(smartleadRows[0]).toEqual(['from_name', 'from_email', 'user_name', 'password', 'smtp_host', 'smtp_port', 'imap_host', 'imap_port']);
    expect(asRecords(smartleadRows)[3]).toEqual({
      from_name: 'Sam Rivera',
      from_email: `sam@${second}`,
      user_name: `sam@${second}`,
      password: known[`sam@${second}`],
      smtp_host: 'smtp.gmail.com',
      smtp_port: '587',
      imap_host: 'imap.gmail.com',
      imap_port: '993',
    });
    const set = await postJson(h.service, `/v1/portal/orders/${subscriptionId}/sequencer`, { sequencer: 'smartlead' }, { method: 'PUT' });
    expect(set.status).toBe(200);
    try {
      expect(parseCsv((await exportOf('')).text)[0]![0]).toBe('from_name');
      // GraphQL answers the same text.
      const gql = await graphql(h.service, 'query ($s: String!) { orderExport(subscriptionId: $s) }', { s: subscriptionId });
      expect(parseCsv(gql.body.data.orderExport)).toEqual(smartleadRows);
    } finally {
      await postJson(h.service, `/v1/portal/orders/${subscriptionId}/sequencer`, { sequencer: 'none' }, { method: 'PUT' });
    }
    // A sequencer without a template of its own (docs/mailboxes.md) exports the generic columns.
    expect(parseCsv((await exportOf('')).text)[0]![0]).toBe('email');
  });

  it('every sequencer an order can name is a format: each CSV parses back with every active mailbox and field, the same on REST and MCP', async () => {
    const known = await passwords();
    const mailboxes = Object.entries(known).map(
      ([email, password]): Exported => ({
        email,
        first: email.startsWith('alex') ? 'Alex' : 'Sam',
        last: email.startsWith('alex') ? 'Morgan' : 'Rivera',
        password: String(password),
      }),
    );
    // The formats are the sequencers (less other and none) and generic.
    expect(Object.keys(FORMAT_SPECS).sort()).toEqual(['generic', ...Object.keys(SEQUENCERS).filter((s) => s !== 'other' && s !== 'none')].sort());
    for (const [format, spec] of Object.entries(FORMAT_SPECS)) {
      const rest = await exportOf(`?format=${format}`);
      expect(rest.status, format).toBe(200);
      const rows = parseCsv(rest.text);
      expect(rows[0], format).toEqual(spec.map(([column]) => column));
      expect(asRecords(rows), format).toEqual(mailboxes.map((m) => Object.fromEntries(spec.map(([column, value]) => [column, value(m)]))));
      const tool = await mcp.callTool({ name: 'export_order_mailboxes', arguments: { subscription_id: subscriptionId, format } });
      expect(tool.isError, format).toBeFalsy();
      const content = (tool.content as { type: string; text: string }[])[0]!;
      expect(parseCsv(content.text), format).toEqual(rows);
    }
    // Each export was recorded with its format, and no event holds a password.
    const events = await h.service.services.db.selectFrom('events').select('data').where('type', '=', 'mailbox.credentials_revealed').execute();
    const formats = events.map((e) => JSON.parse(e.data).export_format).filter(Boolean);
    for (const format of Object.keys(FORMAT_SPECS)) expect(formats.filter((f: string) => f === format).length, format).toBeGreaterThanOrEqual(2);
    for (const e of events) for (const p of Object.values(known)) expect(e.data).not.toContain(p);
  });

  it('the order’s sequencer picks its own format when none is asked for, for every sequencer; other and none take the generic one', async () => {
    try {
      for (const sequencer of Object.keys(SEQUENCERS)) {
        const set = await postJson(h.service, `/v1/portal/orders/${subscriptionId}/sequencer`, { sequencer }, { method: 'PUT' });
        expect(set.status, sequencer).toBe(200);
        const expected = FORMAT_SPECS[sequencer] ?? FORMAT_SPECS.generic!;
        expect(parseCsv((await exportOf('')).text)[0], sequencer).toEqual(expected.map(([column]) => column));
      }
    } finally {
      await postJson(h.service, `/v1/portal/orders/${subscriptionId}/sequencer`, { sequencer: 'none' }, { method: 'PUT' });
    }
  });

  it('refuses an unknown format (400 with the allowed ones), another account’s order (404), a read key (403), a stopped order (409)', async () => {
    const unknown = await exportOf('?format=excel');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text)).toMatchObject({
      code: 'unknown_format',
      allowed: ['generic', ...Object.keys(FORMAT_SPECS).filter((f) => f !== 'generic')],
      detail: expect.stringMatching(/format=/),
    });
    const other = await h.service.seedAccount();
    const theirs = await exportOf('', other.key);
    expect(theirs.status).toBe(404);
    expect(JSON.parse(theirs.text).code).toBe('order_not_found');
    const { key: readKey } = await createApiKey(h.service.services.db, h.service.demo.accountId, ['read']);
    expect((await exportOf('', readKey)).status).toBe(403);
    await h.service.services.db.updateTable('orders').set({ status: 'cancelled' }).where('subscription_id', '=', subscriptionId).execute();
    try {
      const stopped = await exportOf('?format=generic');
      expect(stopped.status).toBe(409);
      expect(JSON.parse(stopped.text)).toMatchObject({ code: 'order_suspended', order_status: 'cancelled' });
    } finally {
      await h.service.services.db.updateTable('orders').set({ status: 'active' }).where('subscription_id', '=', subscriptionId).execute();
    }
  });

  it("an export's alert e-mail names the order in its subject", async () => {
    const recipients = await postJson(h.service, '/v1/alerts/recipients', { emails: ['export-watch@example.com'] }, { method: 'PUT' });
    expect(recipients.status).toBe(200);
    expect((await exportOf('')).status).toBe(200);
    // The log line of each alert written to the outbox holds its subject as sent (headers may be folded in the file).
    const subjects = () =>
      logged
        .join('')
        .split('\n')
        .filter((line) => line.includes('alert e-mail written to the outbox') && line.includes('export-watch@example.com'))
        .map((line) => String(JSON.parse(line).subject));
    await waitFor('the export alert in the outbox', async () => subjects().some((s) => s.includes('exported')));
    expect(subjects().filter((s) => s.includes('exported'))).toContain(`Mailbox passwords of order ${subscriptionId} were exported`);
    for (const subject of subjects()) expect(subject).not.toContain('undefined');
  });
});
