import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { recordEvent } from '../../resolvers/events/record-event.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from './webhook-receiver.js';

/** The account's extra alert addresses: REST, GraphQL and MCP, one validation, and the mailer using them. */
let service: TestService;
const outbox = `/tmp/alert-recipients-outbox-${process.pid}-${Date.now()}`;

beforeAll(async () => {
  service = await startTestService({ env: { JOBS: 'on', ALERT_OUTBOX_DIR: outbox, JOBS_POLL_INTERVAL_MS: '50' } });
});
afterAll(async () => {
  await service?.close();
  rmSync(outbox, { recursive: true, force: true });
});

const send = async (method: string, path: string, body?: unknown, key?: string) => {
  const response = await service.api(path, {
    method,
    ...(key && { key }),
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

describe('alert recipients over REST', () => {
  it('starts empty, takes a list that replaces the one before, and answers it trimmed, lower-cased and once each', async () => {
    expect(await send('GET', '/v1/alerts/recipients')).toEqual({ status: 200, body: { emails: [], max_emails: 10 } });
    const set = await send('PUT', '/v1/alerts/recipients', { emails: [' Ops@Example.com ', 'oncall+alerts@example.org', 'ops@example.com'] });
    expect(set).toEqual({ status: 200, body: { emails: ['oncall+alerts@example.org', 'ops@example.com'], max_emails: 10 } });
    expect((await send('GET', '/v1/alerts/recipients')).body.emails).toEqual(['oncall+alerts@example.org', 'ops@example.com']);
    const replaced = await send('PUT', '/v1/alerts/recipients', { emails: ['team@example.net'] });
    expect(replaced.body.emails).toEqual(['team@example.net']);
    expect((await send('GET', '/v1/alerts/recipients')).body.emails).toEqual(['team@example.net']);
  });

  it('refuses (422) what is not an e-mail address, more than ten, or no list, each with a sentence, and keeps the list', async () => {
    for (const wrong of ['not an address', 'a,b@example.com', '<x@example.com>', 'x@localhost', 'x@example.com\nBcc: y@example.com', '']) {
      const refused = await send('PUT', '/v1/alerts/recipients', { emails: ['fine@example.com', wrong] });
      expect(refused.status, JSON.stringify(wrong)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'invalid_email', detail: expect.stringContaining('emails[1]'), invalid: [{ index: 1 }] });
    }
    const eleven = Array.from({ length: 11 }, (_, i) => `person${i}@example.com`);
    const tooMany = await send('PUT', '/v1/alerts/recipients', { emails: eleven });
    expect(tooMany).toMatchObject({ status: 422, body: { code: 'too_many_alert_recipients', detail: expect.stringMatching(/10 extra alert addresses/) } });
    const missing = await send('PUT', '/v1/alerts/recipients', {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/emails/);
    expect((await send('GET', '/v1/alerts/recipients')).body.emails).toEqual(['team@example.net']);
    // Ten is allowed; [] clears the list.
    expect((await send('PUT', '/v1/alerts/recipients', { emails: eleven.slice(0, 10) })).body.emails).toHaveLength(10);
    expect((await send('PUT', '/v1/alerts/recipients', { emails: [] })).body.emails).toEqual([]);
  });

  it('reading needs scope read and changing scope write; another account sees its own list', async () => {
    const { key: readOnly } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    expect((await send('GET', '/v1/alerts/recipients', undefined, readOnly)).status).toBe(200);
    const refused = await send('PUT', '/v1/alerts/recipients', { emails: ['x@example.com'] }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write/);
    const { key: writeOnly } = await createApiKey(service.services.db, service.demo.accountId, ['write']);
    expect((await send('GET', '/v1/alerts/recipients', undefined, writeOnly)).status).toBe(403);
    expect((await send('PUT', '/v1/alerts/recipients', { emails: ['mine@example.com'] }, writeOnly)).status).toBe(200);
    const other = await service.seedAccount();
    expect((await send('GET', '/v1/alerts/recipients', undefined, other.key)).body.emails).toEqual([]);
  });
});

describe('alert recipients over GraphQL and MCP', () => {
  it('alertRecipients and setAlertRecipients answer as REST does, with the same refusals', async () => {
    const set = await graphql(service, 'mutation($e: [String!]!) { setAlertRecipients(input: { emails: $e }) { emails maxEmails } }', {
      e: ['GraphQL@Example.com'],
    });
    expect(set.body.data.setAlertRecipients).toEqual({ emails: ['graphql@example.com'], maxEmails: 10 });
    const read = await graphql(service, '{ alertRecipients { emails } }');
    expect(read.body.data.alertRecipients.emails).toEqual(['graphql@example.com']);
    const refused = await graphql(service, 'mutation { setAlertRecipients(input: { emails: ["nope"] }) { emails } }');
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_email' } });
    expect((await send('GET', '/v1/alerts/recipients')).body.emails).toEqual(['graphql@example.com']);
  });

  it('get_alert_recipients and set_alert_recipients are MCP tools', async () => {
    const client = new Client({ name: 'alert-recipients-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.demo.key}` } } }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['get_alert_recipients', 'set_alert_recipients']));
      const text = (r: Awaited<ReturnType<Client['callTool']>>) => {
        const first: unknown = Array.isArray(r.content) ? r.content[0] : undefined;
        return JSON.parse(first && typeof first === 'object' && 'text' in first && typeof first.text === 'string' ? first.text : 'null');
      };
      const set = await client.callTool({ name: 'set_alert_recipients', arguments: { emails: ['mcp@example.com', 'ops@example.com'] } });
      expect(text(set)).toEqual({ emails: ['mcp@example.com', 'ops@example.com'], max_emails: 10 });
      expect(text(await client.callTool({ name: 'get_alert_recipients', arguments: {} })).emails).toEqual(['mcp@example.com', 'ops@example.com']);
      const refused = await client.callTool({ name: 'set_alert_recipients', arguments: { emails: ['not-an-address'] } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('emails[0]');
    } finally {
      await client.close();
    }
    const { key: readOnly } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    const reader = new Client({ name: 'alert-recipients-reader', version: '1' });
    await reader.connect(
      new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${readOnly}` } } }),
    );
    try {
      const names = (await reader.listTools()).tools.map((t) => t.name);
      expect(names).toContain('get_alert_recipients');
      expect(names).not.toContain('set_alert_recipients');
    } finally {
      await reader.close();
    }
  });
});

describe('the alert mailer', () => {
  it('sends each event to the addresses set through the API, once each', async () => {
    const account = await service.seedAccount();
    const put = await send('PUT', '/v1/alerts/recipients', { emails: ['Ops@Example.com', 'oncall@example.org'] }, account.key);
    expect(put.status).toBe(200);
    const eventId = await recordEvent(service.services.db, account.accountId, 'domain.live', {
      domain: 'recipients.example',
      build_state: 'live',
      reason: null,
      problems: [],
    });
    await service.jobs.environment.enqueue('fan_out_event', { eventId });
    const files = () => {
      try {
        return readdirSync(outbox).filter((f) => f.startsWith(`${eventId}.`));
      } catch {
        return [];
      }
    };
    await waitFor('both alerts in the outbox', async () => files().length >= 2 && files());
    expect(files().sort()).toEqual([`${eventId}.oncall_example.org.eml`, `${eventId}.ops_example.com.eml`]);
    expect(readFileSync(`${outbox}/${eventId}.ops_example.com.eml`, 'utf8')).toContain('To: ops@example.com');
    const sent = await service.services.db.selectFrom('alert_emails').select('email').where('event_id', '=', eventId!).orderBy('email').execute();
    expect(sent.map((r) => r.email)).toEqual(['oncall@example.org', 'ops@example.com']);
  });
});
