import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcFixture, reportFixture } from '../support/report-files.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { alertEmailText } from '../../jobs/send-alert-email.js';

/** dmarc.failures and tls.failures: raised by stored reports, once per domain and day, listed in /v1/events and subscribable by webhooks. */
let service: TestService;
let domains: string[];
const day = new Date(Date.now() - 86_400_000);
day.setUTCHours(0, 0, 0, 0);

async function upload(body: string) {
  const response = await service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/xml' }, body });
  expect(response.status).toBe(200);
}

async function events(type: string) {
  const response = await service.api('/v1/events?limit=100');
  const page = (await response.json()) as { data: { type: string; data: Record<string, unknown> }[] };
  return page.data.filter((e) => e.type === type).map((e) => e.data);
}

beforeAll(async () => {
  service = await startTestService({ socketless: true });
  domains = (await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', service.demo.accountId).orderBy('id').execute()).map(
    (d) => d.domain,
  );
});
afterAll(async () => {
  await service?.close();
});

describe('report alerts', () => {
  it('a failing source never seen before raises dmarc.failures once per domain and day', async () => {
    await upload(dmarcFixture('google.xml', { domain: domains[0], begin: day, reportId: 'alert-google' }));
    await upload(dmarcFixture('google.xml', { domain: domains[0], begin: day, reportId: 'alert-google-2' }));
    const raised = await events('dmarc.failures');
    expect(raised).toEqual([
      expect.objectContaining({
        domain: domains[0],
        day: day.toISOString().slice(0, 10),
        reporter: 'google.com',
        messages: 123,
        pass_rate: 97.6,
        new_failing_sources: [{ source_ip: '203.0.113.77', messages: 3 }],
        message: expect.stringMatching(/never seen before/),
      }),
    ]);
  });

  it("the dmarc.failures e-mail speaks of the portal's Analytics page, with its link, and no API path, event id or ISO time", async () => {
    const response = await service.api('/v1/events?limit=100');
    const page = (await response.json()) as { data: { id: string; type: string; created: string; data: Record<string, unknown> }[] };
    const event = page.data.find((e) => e.type === 'dmarc.failures' && e.data.domain === domains[0]);
    expect(event).toBeDefined();
    const apiUrl = service.services.config.apiUrl;
    const text = alertEmailText(event!, apiUrl);
    expect(text).toContain(`See who sends mail as ${domains[0]} on the Analytics page:\n${apiUrl}/portal/analytics\n`);
    expect(text).toContain("The portal's Analytics page shows who sends mail as the domain.");
    expect(text).not.toContain(event!.id);
    expect(text).not.toMatch(/\/v1\/|GET |\d{4}-\d\d-\d\dT\d\d:/);
    expect(text).toMatch(/This happened on \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC\./);
  });

  it('a pass rate under 90% raises it; a report where all passes raises nothing', async () => {
    await upload(dmarcFixture('yahoo.xml', { domain: domains[1], begin: day, reportId: 'alert-yahoo-ok' }));
    expect((await events('dmarc.failures')).filter((e) => e.domain === domains[1])).toEqual([]);
    const failing = dmarcFixture('yahoo.xml', { domain: domains[1], begin: day, reportId: 'alert-yahoo-bad' })
      .replace('<dkim>pass</dkim>', '<dkim>fail</dkim>')
      .replace('<spf>pass</spf>', '<spf>fail</spf>');
    await upload(failing);
    expect((await events('dmarc.failures')).filter((e) => e.domain === domains[1])).toEqual([
      expect.objectContaining({ pass_rate: 0, messages: 25, threshold: 90 }),
    ]);
  });

  it('TLS-RPT failed sessions raise tls.failures; a webhook can subscribe to both types', async () => {
    const tls = reportFixture('microsoft-tlsrpt.json').replaceAll('northwind-mail.test', domains[2]!).replaceAll('2026-11-24', day.toISOString().slice(0, 10));
    const response = await service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/tlsrpt+json' }, body: tls });
    expect(response.status).toBe(200);
    expect(await events('tls.failures')).toEqual([
      expect.objectContaining({ domain: domains[2], failed_sessions: 5, successful_sessions: 95, result_types: ['certificate-expired'] }),
    ]);
    const hook = await service.api('/v1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://93.184.215.14/hooks', events: ['dmarc.failures', 'tls.failures'] }),
    });
    expect(hook.status).toBe(200);
    expect((await hook.json()).events).toEqual(['dmarc.failures', 'tls.failures']);
  });
});
