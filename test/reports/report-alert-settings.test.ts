import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dmarcFixture } from '../support/report-files.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';

/**
 * The account's own DMARC pass-rate threshold for dmarc.failures: read and set through REST, GraphQL
 * and MCP, used by the next stored report, and back to the default with null.
 */
let service: TestService;
let domain: string;
const daysAgo = (n: number) => {
  const day = new Date(Date.now() - n * 86_400_000);
  day.setUTCHours(0, 0, 0, 0);
  return day;
};

async function upload(body: string) {
  const response = await service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/xml' }, body });
  expect(response.status).toBe(200);
}

async function dmarcAlerts() {
  const response = await service.api('/v1/events?limit=100');
  const page = (await response.json()) as { data: { type: string; data: Record<string, unknown> }[] };
  return page.data.filter((e) => e.type === 'dmarc.failures').map((e) => e.data);
}

async function put(body: unknown, key?: string) {
  const response = await service.api('/v1/alerts/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(key ? { key } : {}),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  service = await startTestService({ socketless: true });
  const row = await service.services.db
    .selectFrom('domains')
    .select('domain')
    .where('account_id', '=', service.demo.accountId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  domain = row.domain;
});
afterAll(async () => {
  await service?.close();
});

describe('GET and PUT /v1/alerts/settings', () => {
  it('starts at the default; a threshold set is used by the next report; null gives the default back', async () => {
    const defaults = {
      dmarc_pass_rate_threshold: 90,
      dmarc_pass_rate_threshold_source: 'default',
      dmarc_pass_rate_threshold_default: 90,
      dmarc_min_messages: 10,
    };
    expect(await (await service.api('/v1/alerts/settings')).json()).toEqual(defaults);

    // Google's report: 123 messages, 97.6% passing; 203.0.113.77 fails. Its first report raises an alert for the new failing source.
    await upload(dmarcFixture('google.xml', { domain, begin: daysAgo(3), reportId: 'threshold-1' }));
    // The same figures the next day: the source is known and 97.6% is above the default 90%, so nothing.
    await upload(dmarcFixture('google.xml', { domain, begin: daysAgo(2), reportId: 'threshold-2' }));
    expect((await dmarcAlerts()).map((a) => a.day)).toEqual([daysAgo(3).toISOString().slice(0, 10)]);

    expect(await put({ dmarc_pass_rate_threshold: 99 })).toEqual({
      status: 200,
      body: { ...defaults, dmarc_pass_rate_threshold: 99, dmarc_pass_rate_threshold_source: 'account' },
    });
    // Alerts come once per domain and day of receipt: the next report goes to another domain of the account.
    const second = await service.services.db
      .selectFrom('domains')
      .select('domain')
      .where('account_id', '=', service.demo.accountId)
      .where('domain', '!=', domain)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await upload(dmarcFixture('google.xml', { domain: second.domain, begin: daysAgo(1), reportId: 'threshold-3' }));
    const raised = await dmarcAlerts();
    expect(raised.find((a) => a.domain === second.domain)).toEqual(
      expect.objectContaining({ pass_rate: 97.6, threshold: 99, message: expect.stringContaining('(under 99%)') }),
    );

    // Another account keeps the default.
    const other = await service.seedAccount();
    expect(await (await service.api('/v1/alerts/settings', { key: other.key })).json()).toEqual(defaults);

    expect(await put({ dmarc_pass_rate_threshold: null })).toEqual({ status: 200, body: defaults });
    const stored = await service.services.db
      .selectFrom('accounts')
      .select('dmarc_alert_pass_rate')
      .where('id', '=', service.demo.accountId)
      .executeTakeFirstOrThrow();
    expect(stored.dmarc_alert_pass_rate).toBeNull();
  });

  it('refuses a threshold that is not a percentage above 0, saying what to send', async () => {
    for (const value of [0, -5, 100.5, 1000]) {
      const answer = await put({ dmarc_pass_rate_threshold: value });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ code: 'invalid_threshold', detail: expect.stringContaining('above 0 and at most 100') });
    }
    expect(await put({ dmarc_pass_rate_threshold: 'high' })).toMatchObject({
      status: 422,
      body: { code: 'invalid_field', detail: 'The field "dmarc_pass_rate_threshold" is not in the expected shape: send a number.' },
    });
    expect(await put({ dmarc_pass_rate: 95 })).toMatchObject({
      status: 422,
      body: { code: 'unknown_field', detail: 'Remove "dmarc_pass_rate": it is not a field of this request.' },
    });
  });

  it('a key with read only may read the settings but not set them', async () => {
    const { key } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    expect((await service.api('/v1/alerts/settings', { key })).status).toBe(200);
    const refused = await put({ dmarc_pass_rate_threshold: 95 }, key);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write/);
  });
});

describe('GraphQL and MCP', () => {
  it('GraphQL: alertSettings and setAlertSettings (one decimal kept)', async () => {
    const set = await graphql(
      service,
      'mutation { setAlertSettings(input: { dmarcPassRateThreshold: 95.25 }) { dmarcPassRateThreshold dmarcPassRateThresholdSource } }',
    );
    expect(set.body.data.setAlertSettings).toEqual({ dmarcPassRateThreshold: 95.3, dmarcPassRateThresholdSource: 'account' });
    const read = await graphql(service, '{ alertSettings { dmarcPassRateThreshold dmarcPassRateThresholdDefault dmarcMinMessages } }');
    expect(read.body.data.alertSettings).toEqual({ dmarcPassRateThreshold: 95.3, dmarcPassRateThresholdDefault: 90, dmarcMinMessages: 10 });
  });

  it('MCP: set_alert_settings and get_alert_settings', async () => {
    const client = new Client({ name: 'alert-settings-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.demo.key}` } } }),
    );
    try {
      const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { type: string; text: string }[])[0]!.text;
      const set = JSON.parse(text(await client.callTool({ name: 'set_alert_settings', arguments: { dmarc_pass_rate_threshold: 80 } })));
      expect(set).toMatchObject({ dmarc_pass_rate_threshold: 80, dmarc_pass_rate_threshold_source: 'account' });
      const read = JSON.parse(text(await client.callTool({ name: 'get_alert_settings', arguments: {} })));
      expect(read.dmarc_pass_rate_threshold).toBe(80);
      const refused = await client.callTool({ name: 'set_alert_settings', arguments: { dmarc_pass_rate_threshold: 0 } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/above 0 and at most 100/);
    } finally {
      await client.close();
    }
  });
});
