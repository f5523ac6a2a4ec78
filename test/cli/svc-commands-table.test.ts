/**
 * cli/svc.py's commands against the operation table: each account operation is reached by a command
 * of its own, or is listed below as an exception with the reason. Each command is run (python3) against
 * a local server that records the request and answers {} — what the command really sends, not what
 * its help says — and each request is matched to the row with that method and path. A command the CLI
 * gains without a line in COMMAND_RUNS fails here, as does an operation added to the table with no
 * command and no exception, and an exception whose operation has a command by now.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable, type OperationRow } from '../../operations/operation-table.js';

const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));

/**
 * Account operations without a command of their own, and why. The generic `get`, `post`, `put` and
 * `delete PATH` commands reach every one of them (docs/cli.md).
 */
const WITHOUT_COMMAND: Record<string, string> = {
  get_referrals: 'a read few scripts want; `svc get /v1/portal/referrals`',
  create_workspace: 'folders are arranged in the portal; `svc post /v1/portal/workspaces FILE`',
  rename_workspace: 'folders are arranged in the portal; `svc put /v1/portal/workspaces/ID FILE`',
  delete_workspace: 'folders are arranged in the portal; `svc delete /v1/portal/workspaces/ID`',
  file_domain: 'folders are arranged in the portal; `svc put /v1/portal/domains/DOMAIN/workspace FILE`',
  set_sequencer: 'an order setting changed rarely; `svc put /v1/portal/orders/SUB/sequencer FILE`',
  set_monitors: 'an order setting changed rarely; `svc put /v1/portal/orders/SUB/monitors FILE`',
  raise_request: 'a change request is a sentence to support, written in the portal; `svc post /v1/portal/requests FILE`',
  request_plan: 'asking for a plan is a conversation with the operator; `svc post /v1/catalogue/requests FILE`',
  pay_invoices: 'paying is a person confirming a charge in the portal; `svc post /v1/portal/billing/pay FILE`',
  list_webhooks: 'webhooks are set up once, in the portal; `svc get /v1/webhooks` (`svc listen` forwards events locally instead)',
  create_webhook: 'webhooks are set up once, in the portal; `svc post /v1/webhooks FILE`',
  update_webhook: 'webhooks are set up once, in the portal; `svc put /v1/webhooks/ID FILE`',
  delete_webhook: 'webhooks are set up once, in the portal; `svc delete /v1/webhooks/ID`',
  list_webhook_deliveries: 'webhooks are set up once, in the portal; `svc get /v1/webhooks/ID/deliveries`',
  send_test_webhook: 'webhooks are set up once, in the portal; `svc post /v1/webhooks/ID/test`',
  resend_webhook_delivery: 'webhooks are set up once, in the portal; `svc post /v1/webhooks/ID/deliveries/ID/resend`',
  get_alert_recipients: 'alert recipients are people, chosen in the portal; `svc get /v1/alerts/recipients`',
  set_alert_recipients: 'alert recipients are people, chosen in the portal; `svc put /v1/alerts/recipients FILE`',
  list_dns_connections: 'DNS connections hold credentials, entered in the portal; `svc get /v1/dns-connections`',
  create_dns_connection: 'DNS connections hold credentials, entered in the portal; `svc post /v1/dns-connections FILE`',
  delete_dns_connection: 'DNS connections hold credentials, entered in the portal; `svc delete /v1/dns-connections/ID`',
  list_domain_mailboxes: 'mailboxes are managed in the portal; `svc get /v1/portal/domains/DOMAIN/mailboxes`',
  reveal_mailbox_credentials: 'passwords are shown to a person, in the portal; `svc post /v1/portal/domains/DOMAIN/mailboxes/credentials`',
  reset_mailbox_password: 'passwords are shown to a person, in the portal; `svc post /v1/portal/mailboxes/EMAIL/password`',
  export_order_mailboxes: 'a CSV download, made in the portal; `svc get /v1/portal/orders/SUB/export`',
};

/** The public checks are on the public listener, which the CLI (a client of the account API) does not talk to. */
const isAccountRow = (row: OperationRow) => row.listener === 'api';

/** The generic commands: any path, so they reach no operation in particular. */
const GENERIC = new Set(['get', 'post', 'put', 'delete']);

let dir: string;
let orderFile: string;
let reportFile: string;

/** The argv of each command, with arguments that make it send its request(s); null for the generic ones. */
function commandRuns(): Record<string, string[][] | null> {
  return {
    catalogue: [['catalogue']],
    preview: [['preview', orderFile]],
    order: [['order', orderFile, '--yes', '--idempotency-key', 'svc-test-0001']],
    reinstate: [['reinstate', '42', '--yes', '--idempotency-key', 'svc-test-0002']],
    'payment-method': [['payment-method']],
    'setup-link': [['setup-link', '--success-url', 'https://example.com/ok', '--cancel-url', 'https://example.com/no']],
    verification: [['verification']],
    verify: [['verify', 'example.com']],
    setup: [
      ['setup', 'example.com'],
      ['setup', 'example.com', '--check'],
      ['setup', 'example.com', '--zone'],
      ['setup', 'example.com', '--apply', '3', '--dry-run'],
    ],
    'setup-applies': [['setup-applies', 'example.com']],
    'setup-revert': [['setup-revert', 'example.com', '7', '--dry-run']],
    dashboard: [['dashboard']],
    orders: [['orders']],
    billing: [['billing']],
    deliverability: [['deliverability']],
    reports: [['reports']],
    sources: [['sources', 'example.com']],
    'report-days': [['report-days']],
    'tls-days': [['tls-days', '--period', '30d']],
    'alert-settings': [['alert-settings'], ['alert-settings', '--dmarc-threshold', '90']],
    'dmarc-ramp': [
      ['dmarc-ramp', 'example.com'],
      ['dmarc-ramp', 'example.com', '--advance', '3', '--dry-run'],
    ],
    'dmarc-ramp-auto': [['dmarc-ramp-auto'], ['dmarc-ramp-auto', 'on']],
    'upload-report': [['upload-report', reportFile]],
    requests: [['requests']],
    workspaces: [['workspaces']],
    listen: [['listen', '--forward-to', 'http://127.0.0.1:9/hook']],
    get: null,
    post: null,
    put: null,
    delete: null,
  };
}

interface Seen {
  readonly method: string;
  readonly path: string;
}

let server: Server;
let seen: Seen[] = [];
/** Called with each request as it arrives (the listen command is stopped on its first). */
let onRequest: () => void = () => {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-commands-'));
  orderFile = join(dir, 'order.json');
  writeFileSync(orderFile, JSON.stringify({ sku: 'x', domains: [] }));
  reportFile = join(dir, 'report.xml');
  writeFileSync(reportFile, '<feedback/>');
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]! });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.startsWith('/v1/events') ? '{"events": [], "has_more": false}' : '{}');
      onRequest();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function python(args: string[], stopOnFirstRequest = false): Promise<{ code: number | string | null; stderr: string }> {
  const { port } = server.address() as AddressInfo;
  const child = spawn('python3', args, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: `http://127.0.0.1:${port}`, SERVICE_API_KEY: 'sk_test_x' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  if (stopOnFirstRequest) onRequest = () => child.kill('SIGINT');
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      onRequest = () => {};
      resolve({ code: code ?? signal, stderr });
    }),
  );
}

/** The row a request is for: same method, and the path matching the row's with each {param} one segment. */
function rowOf(request: Seen): OperationRow | undefined {
  return operationTable.find((row) => {
    if (row.listener !== 'api' || row.method !== request.method) return false;
    const pattern = new RegExp(`^${row.path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`);
    return pattern.test(request.path);
  });
}

describe("svc's commands and the operation table", () => {
  let cliCommands: string[];
  const reached = new Map<string, string>();

  beforeAll(async () => {
    const listing = spawn(
      'python3',
      [
        '-c',
        `import sys, json; sys.path.insert(0, ${JSON.stringify(join(SVC, '..'))}); import svc; p = svc.build_parser(); print(json.dumps(sorted(p._subparsers._group_actions[0].choices)))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    listing.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    await new Promise((resolve) => listing.once('exit', resolve));
    cliCommands = JSON.parse(out) as string[];

    for (const [command, runs] of Object.entries(commandRuns())) {
      for (const argv of runs ?? []) {
        seen = [];
        const result = await python([SVC, ...argv], command === 'listen');
        if (command !== 'listen' && result.code !== 0) throw new Error(`svc ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
        for (const request of seen) {
          const row = rowOf(request);
          if (!row) throw new Error(`svc ${argv.join(' ')} sent ${request.method} ${request.path}, which is no operation of the table`);
          if (!reached.has(row.name)) reached.set(row.name, command);
        }
        if (seen.length === 0) throw new Error(`svc ${argv.join(' ')} sent no request`);
      }
    }
  }, 120_000);

  it('every command of the CLI has a run in this test (the generic ones named as such)', () => {
    expect(cliCommands.length).toBeGreaterThan(10);
    expect([...cliCommands].sort()).toEqual(Object.keys(commandRuns()).sort());
    expect(Object.entries(commandRuns()).filter(([name, runs]) => (runs === null) !== GENERIC.has(name))).toEqual([]);
  });

  it('every account operation has a command, or is listed as an exception with its reason', () => {
    const missing = operationTable.filter((row) => isAccountRow(row) && !reached.has(row.name) && !(row.name in WITHOUT_COMMAND)).map((row) => row.name);
    expect(missing, 'operations with no command: add one to cli/svc.py (and docs/cli.md) or an exception here').toEqual([]);
  });

  it('no exception is stale: each names an account operation that has no command', () => {
    const stale = Object.keys(WITHOUT_COMMAND).filter((name) => reached.has(name) || !operationTable.some((row) => row.name === name && isAccountRow(row)));
    expect(stale).toEqual([]);
  });
});
