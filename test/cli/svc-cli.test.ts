import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operationTable } from '../../operations/operation-table.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { dmarcFixture, gzip } from '../support/report-files.js';
import { startTestDnsServer, type TestDnsServer } from '../support/dns-server.js';

const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));
const READ_LIMIT = 60;

let service: TestService;
let dns: TestDnsServer;
let dir: string;
beforeAll(async () => {
  // The sources read names its addresses by PTR: a local DNS server (with no PTR records) answers, not the machine's resolver.
  dns = await startTestDnsServer({ records: [] });
  // A small reading allowance so the 429 test can spend a key's allowance quickly; the other tests
  // stay well under it with the demo key.
  service = await startTestService({ rateLimits: { read: READ_LIMIT }, env: { DNS_SERVERS: dns.server } });
  dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
});
afterAll(async () => {
  await service?.close();
  await dns?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs python3 with a clean environment: only PATH and what the test gives (never the caller's SERVICE_API_*). */
function run(command: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Run> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: service.apiUrl, SERVICE_API_KEY: service.demo.key, ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === '') delete (env as Record<string, string>)[k];
  return new Promise((resolve, reject) => {
    const child = spawn('python3', command, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
const svc = (args: string[], options?: { env?: Record<string, string>; stdin?: string }) => run([SVC, ...args], options);

async function rest(path: string, init: RequestInit & { key?: string | null } = {}) {
  const response = await service.api(path, init);
  return { status: response.status, body: await response.json() };
}

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const hasRow = (name: string) => operationTable.some((r) => r.name === name);

describe('reading commands print the REST answer as JSON and exit 0', () => {
  const commands: [string[], string][] = [
    [['catalogue'], '/v1/catalogue'],
    [['payment-method'], '/v1/payment-method'],
    [['dashboard'], '/v1/portal/dashboard'],
    [['orders'], '/v1/portal/orders'],
    [['billing'], '/v1/portal/billing'],
    [['orders', '--limit', '1'], '/v1/portal/orders?limit=1'],
    [['billing', '--limit', '2'], '/v1/portal/billing?limit=2'],
    [['dashboard', '--limit', '2'], '/v1/portal/dashboard?limit=2'],
    [['deliverability'], '/v1/portal/analytics?period=7d'],
    [['deliverability', '--period', '30d'], '/v1/portal/analytics?period=30d'],
    [['requests'], '/v1/portal/requests'],
    [['workspaces'], '/v1/portal/workspaces'],
    [['get', '/v1/portal/referrals'], '/v1/portal/referrals'],
    [['get', 'v1/portal/analytics?period=14d'], '/v1/portal/analytics?period=14d'],
    [['reports'], '/v1/portal/reports?limit=20'],
    [['reports', '--limit', '5'], '/v1/portal/reports?limit=5'],
    [['report-days'], '/v1/portal/reports/daily?period=7d'],
    [['report-days', '--period', '30d'], '/v1/portal/reports/daily?period=30d'],
    [['alert-settings'], '/v1/alerts/settings'],
  ];
  for (const [args, path] of commands) {
    it(`svc ${args.join(' ')} equals GET ${path}`, async () => {
      const result = await svc(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const expected = await rest(path);
      expect(expected.status).toBe(200);
      expect(JSON.parse(result.stdout)).toEqual(expected.body);
      expect(result.stdout).toContain('\n  '); // indented for a person
    });
  }
});

describe('paged lists', () => {
  it('svc orders --limit 1 --starting-after ID prints the next page, as GET does', async () => {
    const first = await rest('/v1/portal/orders?limit=1');
    const id = String(first.body.orders[0].order_id);
    const result = await svc(['orders', '--limit', '1', '--starting-after', id]);
    expect(result.code).toBe(0);
    const expected = await rest(`/v1/portal/orders?limit=1&starting_after=${id}`);
    expect(JSON.parse(result.stdout)).toEqual(expected.body);
    expect(expected.body.orders[0].order_id).not.toBe(first.body.orders[0].order_id);
  });
});

describe('refusals print the detail on stderr and exit 1', () => {
  it('an unknown key: the 401 detail, nothing on stdout', async () => {
    const result = await svc(['dashboard'], { env: { SERVICE_API_KEY: 'sk_live_not-a-real-key' } });
    const expected = await rest('/v1/portal/dashboard', { key: 'sk_live_not-a-real-key' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(expected.body.detail);
    expect(result.stderr).toContain('HTTP 401');
  });

  it('a path that does not exist: the 404 detail', async () => {
    const result = await svc(['get', '/v1/nope']);
    const expected = await rest('/v1/nope');
    expect(expected.status).toBe(404);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(expected.body.detail);
  });

  it('post to a path that takes no POST: the 405 detail', async () => {
    const result = await svc(['post', '/v1/portal/dashboard', file('empty.json', {})]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Use GET on \/v1\/portal\/dashboard/);
    expect(result.stderr).toContain('HTTP 405');
  });

  it('a key without the scope: the 403 detail names it', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['write']);
    const result = await svc(['billing', '--key', key]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"read"');
  });

  it('no key at all says how to give one', async () => {
    const result = await svc(['dashboard'], { env: { SERVICE_API_KEY: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/SERVICE_API_KEY/);
    expect(result.stderr).toMatch(/--key/);
  });

  it('no API URL says how to give one', async () => {
    const result = await svc(['dashboard'], { env: { SERVICE_API_URL: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/SERVICE_API_URL/);
  });

  it('a service that cannot be reached is a sentence, not a traceback', async () => {
    const result = await svc(['dashboard', '--api', 'http://127.0.0.1:9']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:9/);
    expect(result.stderr).not.toContain('Traceback');
  });

  it('a file that is not JSON is refused before anything is sent', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{"name": ');
    const result = await svc(['post', '/v1/portal/workspaces', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not valid JSON/);
  });
});

describe('--api and --key override the environment', () => {
  it('both options win over wrong variables, before or after the command name', async () => {
    const env = { SERVICE_API_URL: 'http://127.0.0.1:9', SERVICE_API_KEY: 'sk_live_wrong' };
    const after = await svc(['orders', '--api', service.apiUrl, '--key', service.demo.key], { env });
    const before = await svc(['--api', `${service.apiUrl}/v1/`, '--key', service.demo.key, 'orders'], { env });
    const expected = await rest('/v1/portal/orders');
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual(expected.body);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(expected.body);
  });

  it('--key wins over a good SERVICE_API_KEY (a bad option is refused)', async () => {
    const result = await svc(['orders', '--key', 'sk_live_wrong']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 401');
  });
});

describe('order and preview', () => {
  const order = {
    sku: 'no-such-sku',
    domains: [{ domain: 'example.com', forward_to: 'example.org', mailboxes: [{ first_name: 'Ada', last_name: 'Lovelace', local_part: 'ada' }] }],
  };

  it('order without --yes refuses, says why, and sends nothing', async () => {
    const before = await rest('/v1/portal/orders');
    const result = await svc(['order', file('order.json', order)], { env: { SERVICE_API_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--yes/);
    expect(result.stderr).toMatch(/charges the card/);
    expect(result.stderr).not.toMatch(/Could not reach/); // refused before any request
    expect((await rest('/v1/portal/orders')).body).toEqual(before.body);
  });

  it('a malformed --idempotency-key is refused locally with the format rule', async () => {
    const result = await svc(['order', file('order.json', order), '--yes', '--idempotency-key', 'short'], { env: { SERVICE_API_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/8 to 64/);
  });

  it.runIf(hasRow('place_order'))('order --yes without a key makes one, prints it on stderr, and sends it', async () => {
    const result = await svc(['order', file('order.json', order), '--yes']);
    const key = /^Idempotency-Key: (\S+)$/m.exec(result.stderr)?.[1];
    expect(key).toMatch(/^[A-Za-z0-9.:_-]{8,64}$/);
    expect(result.stderr).toContain(`--idempotency-key ${key}`);
    // The refusal (no such sku) is the same sentence REST gives for the same body.
    const expected = await rest('/v1/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'rest-compare-1' },
      body: JSON.stringify(order),
    });
    expect(expected.status).toBeGreaterThanOrEqual(400);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(expected.body.detail);
  });

  it.runIf(hasRow('place_order'))('two runs without --idempotency-key send two different keys', async () => {
    const a = await svc(['order', file('order.json', order), '--yes']);
    const b = await svc(['order', file('order.json', order), '--yes']);
    const keyOf = (r: Run) => /^Idempotency-Key: (\S+)$/m.exec(r.stderr)?.[1];
    expect(keyOf(a)).toBeTruthy();
    expect(keyOf(a)).not.toBe(keyOf(b));
  });

  it.runIf(hasRow('preview_order'))('preview FILE and preview - (stdin) give the REST refusal', async () => {
    // The order names no sku the service sells, so REST refuses it; the command prints the same sentence.
    const expected = await rest('/v1/orders/preview', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
    expect(expected.status).toBeGreaterThanOrEqual(400);
    const fromFile = await svc(['preview', file('order.json', order)]);
    const fromStdin = await svc(['preview', '-'], { stdin: JSON.stringify(order) });
    for (const result of [fromFile, fromStdin]) {
      expect(result.code).toBe(1);
      expect(result.stderr.split('\n')[0]).toBe(expected.body.detail);
    }
  });

  it.runIf(hasRow('preview_order'))('a price-like field in the order file is refused, not ignored', async () => {
    const result = await svc(['preview', file('priced.json', { ...order, sku: 'google-inbox-unwarmed', total: 1 })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('total');
  });

  it.runIf(hasRow('create_card_setup_link'))('setup-link with a return URL that is not http(s) gives the 422 detail', async () => {
    const result = await svc(['setup-link', '--success-url', 'ftp://example.com/ok', '--cancel-url', 'https://example.com/cancel']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('success_url');
    expect(result.stderr).toContain('HTTP 422');
  });

  it.runIf(hasRow('create_card_setup_link'))('setup-link prints the link as JSON', async () => {
    const result = await svc(['setup-link', '--success-url', 'https://example.com/ok', '--cancel-url', 'https://example.com/cancel']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).url).toMatch(/^https?:\/\//);
  });

  it.runIf(hasRow('create_workspace'))('post PATH FILE creates a folder that the workspaces command then lists', async () => {
    const name = `CLI folder ${Date.now()}`;
    const created = await svc(['post', '/v1/portal/workspaces', '-'], { stdin: JSON.stringify({ name }) });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).name).toBe(name);
    const listed = JSON.parse((await svc(['workspaces'])).stdout);
    expect(JSON.stringify(listed)).toContain(name);
  });
});

describe('a spent allowance', () => {
  it('429 reports the Retry-After wait on stderr and exits 1 without waiting', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    for (let i = 0; i < READ_LIMIT; i++) await (await service.api('/v1/payment-method', { key })).arrayBuffer();
    const result = await svc(['payment-method', '--key', key]);
    expect(result.code).toBe(1);
    // It leaves the wait to the caller (no stopwatch: what it says shows it did not wait and retry).
    expect(result.stderr).toMatch(/and run the command again/);
    expect(result.stderr).not.toMatch(/Trying again/);
    const wait = /wait (\d+) seconds \(Retry-After\)/.exec(result.stderr)?.[1];
    expect(Number(wait)).toBeGreaterThan(0);
    expect(Number(wait)).toBeLessThanOrEqual(60);
    expect(result.stderr).toContain('HTTP 429');
  });
});

describe('report commands', () => {
  it('upload-report FILE stores a gzip report; sources DOMAIN equals GET /v1/portal/domains/{domain}/sources', async () => {
    const row = await service.services.db
      .selectFrom('domains')
      .select('domain')
      .where('account_id', '=', service.demo.accountId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const path = join(dir, 'google.xml.gz');
    writeFileSync(path, gzip(dmarcFixture('google.xml', { domain: row.domain, begin: new Date(Date.now() - 86_400_000), reportId: 'cli-1' })));
    const uploaded = await svc(['upload-report', path]);
    expect([uploaded.code, uploaded.stderr]).toEqual([0, '']);
    expect(JSON.parse(uploaded.stdout)).toMatchObject({ stored: 1, files: [{ file: 'google.xml', status: 'stored', report_id: 'cli-1' }] });
    const sources = await svc(['sources', row.domain, '--period', '7d']);
    expect(sources.code).toBe(0);
    expect(JSON.parse(sources.stdout)).toEqual((await rest(`/v1/portal/domains/${row.domain}/sources?period=7d`)).body);
    expect(JSON.parse(sources.stdout).sources).toHaveLength(2);
  });

  it('alert-settings --dmarc-threshold sets the threshold, and default gives it back', async () => {
    const set = await svc(['alert-settings', '--dmarc-threshold', '97.5']);
    expect([set.code, set.stderr]).toEqual([0, '']);
    expect(JSON.parse(set.stdout)).toMatchObject({ dmarc_pass_rate_threshold: 97.5, dmarc_pass_rate_threshold_source: 'account' });
    expect((await rest('/v1/alerts/settings')).body.dmarc_pass_rate_threshold).toBe(97.5);
    const back = await svc(['alert-settings', '--dmarc-threshold', 'default']);
    expect(JSON.parse(back.stdout)).toMatchObject({ dmarc_pass_rate_threshold: 90, dmarc_pass_rate_threshold_source: 'default' });
    const refused = await svc(['alert-settings', '--dmarc-threshold', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/above 0 and at most 100/);
  });
});

describe('help', () => {
  const commands = [
    'catalogue',
    'preview',
    'order',
    'payment-method',
    'setup-link',
    'dashboard',
    'orders',
    'billing',
    'deliverability',
    'reports',
    'sources',
    'report-days',
    'alert-settings',
    'upload-report',
    'setup-applies',
    'setup-revert',
    'requests',
    'workspaces',
    'get',
    'post',
    'listen',
  ];
  it('svc --help lists every command', async () => {
    const result = await svc(['--help'], { env: { SERVICE_API_KEY: '', SERVICE_API_URL: '' } });
    expect(result.code).toBe(0);
    for (const command of commands) expect(result.stdout).toContain(command);
  });
  for (const command of commands) {
    it(`svc ${command} --help explains the command and exits 0`, async () => {
      const result = await svc([command, '--help'], { env: { SERVICE_API_KEY: '', SERVICE_API_URL: '' } });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`usage: svc ${command}`);
      expect(result.stdout).toContain('--api');
    });
  }
  it('order --help shows --yes, --idempotency-key and the shape of the order file', async () => {
    const result = await svc(['order', '--help']);
    expect(result.stdout).toContain('--yes');
    expect(result.stdout).toContain('--idempotency-key');
    expect(result.stdout).toContain('"mailboxes"');
  });
});

describe('GET {api_url}/v1/cli', () => {
  it('serves cli/svc.py byte for byte, without a key, as text/x-python', async () => {
    const response = await fetch(`${service.apiUrl}/v1/cli`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/x-python/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(readFileSync(SVC))).toBe(true);
    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${service.apiUrl}/v1/cli`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('the downloaded copy runs: python3 - --help, and a reading command', async () => {
    const source = await (await fetch(`${service.apiUrl}/v1/cli`)).text();
    const help = await run(['-', '--help'], { stdin: source });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: svc');
    const dashboard = await run(['-', 'dashboard'], { stdin: source });
    expect(dashboard.code).toBe(0);
    expect(JSON.parse(dashboard.stdout)).toEqual((await rest('/v1/portal/dashboard')).body);
  });

  it('uses only the Python standard library', () => {
    const imports = [...readFileSync(SVC, 'utf8').matchAll(/^(?:import|from) ([\w.]+)/gm)].map((m) => m[1]!.split('.')[0]);
    const stdlib = new Set([
      'argparse',
      'base64',
      'datetime',
      'hashlib',
      'hmac',
      'json',
      'os',
      're',
      'secrets',
      'shutil',
      'signal',
      'sys',
      'textwrap',
      'time',
      'urllib',
      'uuid',
    ]);
    expect(imports.filter((name) => !stdlib.has(name!))).toEqual([]);
  });
});
