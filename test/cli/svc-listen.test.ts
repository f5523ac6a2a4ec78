import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { metricsText } from '../../observability/metrics.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

/**
 * `svc listen --forward-to URL` against a live service: events made through REST
 * (POST /v1/webhooks/{id}/test) reach a local receiver that checks the signature the way a customer
 * would, from the format docs/operations.md gives, with the secret the command printed.
 */
const SVC = fileURLToPath(new URL('../../cli/svc.py', import.meta.url));

let service: TestService;
let account: { key: string; accountId: number };
let webhookId: number;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  // Jobs on: sending a test event queues its delivery. The endpoint itself points nowhere (a closed
  // port) and retries only after ten minutes; what this file follows is the events list.
  service = await startTestService({
    env: { JOBS: 'on', JOBS_POLL_INTERVAL_MS: '50', JOBS_SWEEP_INTERVAL_MS: '3600000', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1', WEBHOOK_RETRY_BASE_MS: '600000' },
  });
  account = await service.seedAccount();
  const made = await service.api('/v1/webhooks', {
    method: 'POST',
    key: account.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/unused' }),
  });
  if (made.status !== 200) throw new Error(`POST /v1/webhooks answered ${made.status}: ${await made.text()}`);
  webhookId = ((await made.json()) as { webhook_id: number }).webhook_id;
}, 60_000);
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await service?.close();
});

/** A test event through REST: its id. */
async function testEvent(): Promise<string> {
  const response = await service.api(`/v1/webhooks/${webhookId}/test`, { method: 'POST', key: account.key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { event_id: string }).event_id;
}

// ---- The customer's side: written from docs/operations.md, not from the service's code. ----

/** Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">; refuse t older than 5 minutes. */
function customerVerifies(secret: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  const fields = new Map(header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]));
  const t = Number(fields.get('t'));
  const given = fields.get('v1');
  if (!Number.isInteger(t) || !given || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verified: boolean;
}

/** A receiver that answers 200 to a good signature and 400 to anything else, as a customer's would. */
async function startReceiver(secretOf: () => string, port = 0) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const verified = customerVerifies(secretOf(), body, req.headers['webhook-signature'] as string | undefined);
      received.push({ headers: req.headers, body, verified });
      res.writeHead(verified ? 200 : 400, { 'content-type': 'text/plain' }).end(verified ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---- Running the command ----

interface Listening {
  readonly child: ChildProcessWithoutNullStreams;
  readonly secret: string;
  stdout(): string;
  stderr(): string;
  /** Waits until stdout holds a line matching `pattern`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGINT, as Ctrl-C sends: the exit status. */
  interrupt(): Promise<number | null>;
}

async function listen(args: string[], key = account.key): Promise<Listening> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: service.apiUrl, SERVICE_API_KEY: key, PYTHONUNBUFFERED: '1' };
  const child = spawn('python3', [SVC, 'listen', ...args], { env });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const line = async (pattern: RegExp, timeoutMs = 20_000) => {
    const noLine = () => new Error(`No line matching ${pattern} (exit ${child.exitCode}).\nstdout:\n${out}\nstderr:\n${err}`);
    return waitFor(
      `a line matching ${pattern}`,
      () => {
        const found = out.split('\n').find((l) => pattern.test(l));
        if (!found && child.exitCode !== null) throw noLine();
        return found;
      },
      timeoutMs,
    ).catch((error: unknown) => {
      throw error instanceof Error && error.message.startsWith('No line') ? error : noLine();
    });
  };
  const secretLine = await line(/signing secret is/);
  const secret = /signing secret is (\S+) \(/.exec(secretLine)?.[1] ?? '';
  return {
    child,
    secret,
    stdout: () => out,
    stderr: () => err,
    line,
    interrupt: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** GET /v1/events answered so far by the service in this process (its request counter). */
async function eventListReads(): Promise<number> {
  return [...(await metricsText()).matchAll(/^http_requests_total\{[^}]*method="GET",route="\/v1\/events",[^}]*\} (\d+)$/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

/** Waits until the command has read the events list `more` further times: what it would have sent by then, it has sent. */
async function moreListReads(more: number): Promise<void> {
  const then = await eventListReads();
  await waitFor(`${more} more reads of the events list`, async () => (await eventListReads()) >= then + more);
}

const idsOf = (received: readonly Received[]) => received.map((r) => (JSON.parse(r.body) as { id: string }).id);

describe('svc listen --forward-to', () => {
  it('forwards new events only, oldest first, once each, signed with the printed secret; Ctrl-C stops cleanly', async () => {
    const before = await testEvent(); // already there when the command starts: not replayed
    let secret = '';
    const receiver = await startReceiver(() => secret);
    try {
      const run = await listen(['--forward-to', receiver.url, '--interval', '0.5']);
      secret = run.secret;
      expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
      await run.line(/^Ready\. Forwarding new events to /);

      const made = [await testEvent(), await testEvent(), await testEvent()];
      await waitFor('three forwards', () => receiver.received.length >= 3 && receiver.received);
      // Two more reads of the list go by: nothing is sent twice.
      await moreListReads(2);
      expect(idsOf(receiver.received)).toEqual(made);
      expect(idsOf(receiver.received)).not.toContain(before);

      for (const r of receiver.received) {
        expect(r.verified).toBe(true);
        const event = JSON.parse(r.body) as { id: string; type: string; created: string; data: { webhook_id: number } };
        expect(event).toMatchObject({ type: 'webhook.test', data: { webhook_id: webhookId } });
        expect(r.headers['webhook-id']).toBe(event.id);
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers.authorization).toBeUndefined(); // the API key never goes to the receiver
        // The same signature does not pass with another secret: the check is real.
        expect(customerVerifies('whsec_another', r.body, r.headers['webhook-signature'] as string)).toBe(false);
      }
      // The body is the event as the list gives it (and as deliveries send it).
      const listed = (await (await service.api('/v1/events?limit=3', { key: account.key })).json()) as { data: unknown[] };
      expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([...listed.data].reverse());

      for (const id of made) expect(await run.line(new RegExp(`webhook\\.test \\[${id}\\]\\s+<-- 200 OK`))).toBeTruthy();
      expect(run.stdout()).not.toContain(before);

      const code = await run.interrupt();
      expect(code).toBe(0);
      expect(run.stdout()).toMatch(/^Stopped\. 3 events forwarded in this run\.$/m);
      expect(run.stderr()).not.toContain('Traceback');
    } finally {
      await receiver.close();
    }
  }, 40_000);

  it('an event listed late with an earlier time (its change began before the newest event) is still forwarded, once', async () => {
    let secret = '';
    const receiver = await startReceiver(() => secret);
    try {
      const run = await listen(['--forward-to', receiver.url, '--interval', '0.5']);
      secret = run.secret;
      const first = await testEvent();
      await run.line(new RegExp(`\\[${first}\\]\\s+<-- 200 OK`));
      // As a transaction that began 20 s ago and commits now: created earlier than the event above.
      const late = `evt_late_${Date.now()}`;
      await service.services.db
        .insertInto('events')
        .values({ id: late, account_id: account.accountId, type: 'webhook.test', data: '{"late":true}', created_at: new Date(Date.now() - 20_000) })
        .execute();
      await run.line(new RegExp(`\\[${late}\\]\\s+<-- 200 OK`));
      await moreListReads(2);
      expect(idsOf(receiver.received)).toEqual([first, late]);
      expect(await run.interrupt()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 40_000);

  it('--since replays the recent events oldest first; --secret signs with the secret the receiver already has', async () => {
    const own = 'whsec_the_one_my_receiver_checks';
    const receiver = await startReceiver(() => own);
    try {
      const listed = (await (await service.api('/v1/events?limit=100', { key: account.key })).json()) as { data: { id: string }[] };
      const run = await listen(['--forward-to', receiver.url, '--interval', '0.5', '--since', '10m', '--secret', own]);
      expect(run.secret).toBe(own);
      await run.line(/^Ready\. Forwarding the last 10m and new events/);
      await waitFor('the replay', () => receiver.received.length >= listed.data.length && receiver.received);
      const fresh = await testEvent();
      await waitFor('the new one', () => receiver.received.length > listed.data.length && receiver.received);
      await moreListReads(2);
      expect(idsOf(receiver.received)).toEqual([...listed.data.map((e) => e.id)].reverse().concat(fresh));
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(await run.interrupt()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 40_000);

  it('a receiver that is down is reported and the loop goes on; once it is up, the next event gets through', async () => {
    // A port that was free a moment ago: nothing listens there until the receiver starts on it.
    const probe = await startReceiver(() => '');
    const port = probe.port;
    await probe.close();
    const url = `http://127.0.0.1:${port}/hook`;
    const run = await listen(['--forward-to', url, '--interval', '0.5']);
    const down = await testEvent();
    const reported = await run.line(new RegExp(`\\[${down}\\]\\s+!! receiver unreachable`));
    expect(reported).toContain(`is it running at ${url}?`);
    expect(run.child.exitCode).toBeNull();

    const receiver = await startReceiver(() => run.secret, port);
    try {
      const up = await testEvent();
      await run.line(new RegExp(`\\[${up}\\]\\s+<-- 200 OK`));
      expect(idsOf(receiver.received)).toEqual([up]); // the missed one is not retried by the command
      expect(receiver.received[0]!.verified).toBe(true);
      expect(await run.interrupt()).toBe(0);
      expect(run.stdout()).toMatch(/^Stopped\. 2 events forwarded in this run\.$/m);
      expect(run.stderr()).not.toContain('Traceback');
    } finally {
      await receiver.close();
    }
  }, 40_000);

  it('a receiver that refuses the signature shows its status, and --events keeps to the types asked for', async () => {
    const receiver = await startReceiver(() => 'whsec_not_the_printed_one');
    try {
      const run = await listen(['--forward-to', receiver.url, '--interval', '0.5', '--events', 'domain.live, webhook.test']);
      const id = await testEvent();
      await run.line(new RegExp(`\\[${id}\\]\\s+<-- 400 \\(the receiver refused it\\)`));
      expect(await run.interrupt()).toBe(0);

      const filtered = await listen(['--forward-to', receiver.url, '--interval', '0.5', '--events', 'domain.live']);
      const skipped = await testEvent();
      await moreListReads(2);
      expect(idsOf(receiver.received)).toEqual([id]);
      expect(filtered.stdout()).not.toContain(skipped);
      expect(await filtered.interrupt()).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 40_000);
});

describe('svc listen refusals', () => {
  const once = (args: string[], key = account.key) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('python3', [SVC, 'listen', ...args], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SERVICE_API_URL: service.apiUrl, SERVICE_API_KEY: key },
      });
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
    });

  it('a --forward-to that is not an http(s) URL says what to give', async () => {
    const result = await once(['--forward-to', 'localhost:3000/hook']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^--forward-to must be an http:\/\/ or https:\/\/ URL, such as http:\/\/localhost:3000\/hook/);
  });

  it('--since beyond the 30 days the list keeps or in words, a tiny --interval, a zero --forward-timeout: refused with what to give', async () => {
    const far = await once(['--forward-to', 'http://127.0.0.1:9/hook', '--since', '31d']);
    expect(far.code).toBe(1);
    expect(far.stderr).toMatch(/at most 30d/);
    const words = await once(['--forward-to', 'http://127.0.0.1:9/hook', '--since', 'yesterday']);
    expect(words.code).toBe(1);
    expect(words.stderr).toMatch(/30s, 10m, 2h or 1d/);
    const fast = await once(['--forward-to', 'http://127.0.0.1:9/hook', '--interval', '0.1']);
    expect(fast.code).toBe(1);
    expect(fast.stderr).toMatch(/^--interval is at least 0\.5 seconds/);
    const never = await once(['--forward-to', 'http://127.0.0.1:9/hook', '--forward-timeout', '0']);
    expect(never.code).toBe(1);
    expect(never.stderr).toMatch(/^--forward-timeout is a number of seconds above 0/);
  });

  it('a key without scope write gets the service detail naming it, before anything is printed on stdout', async () => {
    const { key } = await createApiKey(service.services.db, account.accountId, ['read']);
    const result = await once(['--forward-to', 'http://127.0.0.1:9/hook'], key);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('"write"');
    expect(result.stderr).toContain('HTTP 403');
  });
});
