import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FREE_DOMAINS,
  orderBody,
  postJson,
  saveCardThroughSandboxPage,
  startOrderingService,
  type OrderingHarness,
} from '../orders/support/ordering-fixture.js';

const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));

let h: OrderingHarness;
let dir: string;
beforeAll(async () => {
  h = await startOrderingService({ rateLimits: { order: 1000 } });
  dir = mkdtempSync(join(tmpdir(), 'svc-order-'));
  await saveCardThroughSandboxPage(h.service, '4242 4242 4242 4242');
});
afterAll(async () => {
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function svc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: h.service.apiUrl, SERVICE_API_KEY: h.service.demo.key };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [SVC, ...args], { env });
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
    child.stdin.end();
  });
}

let n = 0;
function orderFile(domains: string[]): { path: string; body: Record<string, unknown> } {
  const body = orderBody(domains, 2);
  const path = join(dir, `order-${n++}.json`);
  writeFileSync(path, JSON.stringify(body));
  return { path, body };
}

describe('ordering from the command line, end to end on the sandbox processor', () => {
  it('preview FILE prints what POST /v1/orders/preview answers', async () => {
    const { path, body } = orderFile([FREE_DOMAINS[30]!]);
    const result = await svc(['preview', path]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rest = await postJson(h.service, '/v1/orders/preview', body);
    expect(rest.status).toBe(200);
    expect(JSON.parse(result.stdout)).toEqual(rest.body);
  });

  it('order --yes with a key places once; the same key again replays the same order', async () => {
    const { path } = orderFile([FREE_DOMAINS[31]!]);
    expect((await svc(['preview', path])).code).toBe(0);
    const first = await svc(['order', path, '--yes', '--idempotency-key', 'cli-order-0001']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const placed = JSON.parse(first.stdout);
    expect(placed.replayed).toBe(false);
    expect(placed.quantity).toBe(2);
    const again = await svc(['order', path, '--yes', '--idempotency-key', 'cli-order-0001']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ order_id: placed.order_id, replayed: true });
    const orders = JSON.parse((await svc(['orders'])).stdout);
    expect(orders.orders.filter((o: { order_id: unknown }) => o.order_id === placed.order_id)).toHaveLength(1);
  });

  it('without --idempotency-key, retrying with the key printed on stderr never places a second order', async () => {
    const { path } = orderFile([FREE_DOMAINS[32]!]);
    await svc(['preview', path]);
    const first = await svc(['order', path, '--yes']);
    expect(first.code).toBe(0);
    const key = /^Idempotency-Key: (\S+)$/m.exec(first.stderr)?.[1];
    expect(key).toMatch(/^[A-Za-z0-9.:_-]{8,64}$/);
    const retry = await svc(['order', path, '--yes', '--idempotency-key', key!]);
    expect(retry.code).toBe(0);
    expect(JSON.parse(retry.stdout)).toMatchObject({ order_id: JSON.parse(first.stdout).order_id, replayed: true });
  });

  it('a refused order prints the detail and the problems by domain, and exits 1', async () => {
    const { path } = orderFile(['taken-tenant.com']);
    const result = await svc(['order', path, '--yes', '--idempotency-key', 'cli-order-refused-1']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('problems:');
    expect(result.stderr).toContain('taken-tenant.com');
  });
});
