import { createUser } from '../../resolvers/people/users.js';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService, TEST_ADMIN_SETTINGS } from '../support/test-service.js';
import { runAdminCommand } from '../../admin/run-admin-command.js';
import { waitFor } from './webhook-receiver.js';

/** Metrics on their own port, the operator's commands over the queue and builds, and alert e-mails to the outbox. */
let service: TestService;
const outbox = `/tmp/alerts-outbox-${process.pid}-${Date.now()}`;

beforeAll(async () => {
  service = await startTestService({ env: { JOBS: 'on', METRICS_PORT: '0', ALERT_OUTBOX_DIR: outbox, JOBS_POLL_INTERVAL_MS: '50' } });
});
afterAll(async () => {
  await service?.close();
  rmSync(outbox, { recursive: true, force: true });
});

describe('operations', () => {
  it('/metrics answers in Prometheus format on METRICS_PORT, with requests by route and status', async () => {
    expect(service.metricsUrl).toMatch(/^http:\/\/.+\/metrics$/);
    await service.api('/v1/portal/dashboard');
    await service.api('/v1/portal/orders/sub_nope_123/monitors', { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
    const response = await fetch(service.metricsUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/http_requests_total\{listener="api",method="GET",route="\/v1\/portal\/dashboard",status="200"\} \d+/);
    // IDs in paths are folded so that every order does not make a series of its own.
    expect(text).toContain('route="/v1/portal/orders/:id/monitors"');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",listener="api"/);
    expect(text).toMatch(/job_queue_depth\{state="waiting"\} \d+/);
    const other = await fetch(service.metricsUrl!.replace('/metrics', '/other'));
    expect(other.status).toBe(404);
    expect((await other.json()).detail).toMatch(/GET \/metrics/);
  });

  it('admin jobs prints the queue state as JSON', async () => {
    const outcome = await runAdminCommand(service.services.db, ['jobs'], TEST_ADMIN_SETTINGS);
    expect(outcome.ok).toBe(true);
    const result = (outcome as { result: Record<string, unknown> }).result;
    expect(result).toMatchObject({ runner: service.database.kind === 'postgres' ? 'graphile-worker' : 'in-process', failed: 0 });
    expect(result.domains_by_build_state).toMatchObject({ live: 3, building: 1, queued: 1 });
  });

  it('admin set-build-state moves a domain, records its event, and alert e-mails go to the outbox', async () => {
    const domain = await service.services.db
      .selectFrom('domains')
      .select(['domain', 'account_id'])
      .where('account_id', '=', service.demo.accountId)
      .where('build_state', '=', 'building')
      .executeTakeFirstOrThrow();
    const refused = await runAdminCommand(
      service.services.db,
      ['set-build-state', '--domain', domain.domain, '--state', 'needs_attention'],
      TEST_ADMIN_SETTINGS,
    );
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/--reason is required/) });
    const unknown = await runAdminCommand(service.services.db, ['set-build-state', '--domain', domain.domain, '--state', 'done'], TEST_ADMIN_SETTINGS);
    expect(unknown).toMatchObject({ ok: false, error: expect.stringMatching(/--state must be one of/) });

    await service.services.db.insertInto('alert_recipients').values({ account_id: domain.account_id, email: 'ops@example.com' }).execute();
    await createUser(service.services.db, domain.account_id, `owner-${domain.account_id}@example.com`, 'a long enough password', 'owner');
    const moved = await runAdminCommand(
      service.services.db,
      [
        'set-build-state',
        '--domain',
        domain.domain,
        '--state',
        'needs_attention',
        '--reason',
        'The registrar refused the nameserver change; unlock the domain at your registrar.',
      ],
      TEST_ADMIN_SETTINGS,
    );
    expect(moved).toMatchObject({ ok: true, result: { from: 'building', to: 'needs_attention', event_id: expect.stringMatching(/^evt_/) } });
    const eventId = (moved as unknown as { result: { event_id: string } }).result.event_id;
    await service.jobs.environment.enqueue('fan_out_event', { eventId });
    // The operator's extra address, and every person of the account.
    const file = await waitFor('the alert in the outbox', async () => readdirSafe(outbox).find((f) => f.startsWith(`${eventId}.ops_example.com`)));
    const mail = readFileSync(`${outbox}/${file}`, 'utf8');
    expect(mail).toContain('To: ops@example.com');
    await waitFor("the alert to the account's person", async () =>
      readdirSafe(outbox).find((f) => f.startsWith(`${eventId}.owner-${domain.account_id}_example.com`)),
    );
    expect(mail).toContain(`Subject: ${domain.domain} needs your attention`);
    expect(mail).toContain('unlock the domain at your registrar');
    // People's words: a link to the domain's setup page in the portal, no API path, event id or ISO time.
    // The body, after the headers (the Message-ID header carries the event id for threading, not for people).
    const body = mail.slice(mail.search(/\r?\n\r?\n/)).replace(/=\r?\n/g, '');
    expect(body).toContain(`Open the setup of ${domain.domain} to see what needs doing:`);
    expect(body).toContain(`${service.services.config.apiUrl}/portal/domains/${domain.domain}/setup`);
    expect(body).not.toContain(eventId);
    expect(body).not.toMatch(/\/v1\/|\d{4}-\d\d-\d\dT\d\d:/);
    const row = await service.services.db
      .selectFrom('domains')
      .select(['build_state', 'build_reason'])
      .where('domain', '=', domain.domain)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ build_state: 'needs_attention', build_reason: expect.stringMatching(/registrar/) });
  });

  it('an invoice open past its due date yields one invoice.past_due event, however many sweeps see it', async () => {
    const invoice = await service.services.db
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('account_id', '=', service.demo.accountId)
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 2; i++) {
      await service.jobs.environment.enqueue('sweep', {}, { key: 'sweep' });
      await waitFor('the sweep to run', async () => (await service.jobs.state()).by_task.sweep === undefined);
    }
    const events = await service.services.db
      .selectFrom('events')
      .select(['id', 'data'])
      .where('type', '=', 'invoice.past_due')
      .where('account_id', '=', service.demo.accountId)
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      number: invoice.number,
      amount_due: 1750,
      message: expect.stringMatching(/past due\. Replace the card on file on the portal.s Billing page/),
    });
  });
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
