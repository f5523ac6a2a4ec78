import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { dmarcFixture, gzip, reportFixture, reportMessage, zip } from '../support/report-files.js';
import { graphql, startTestService, type TestService } from '../support/test-service.js';

/** POST /v1/reports over a real socket: raw bytes or base64 JSON on REST, base64 on GraphQL and MCP; every bad input refused with a reason. */
let service: TestService;
let domain: string;

beforeAll(async () => {
  service = await startTestService();
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

/** Google's report with its records repeated from distinct addresses until the XML passes `bytes` (a report as large as a busy domain's, and as compressible). */
function bigReport(reportId: string, bytes: number): string {
  const xml = dmarcFixture('google.xml', { domain, begin: new Date(Date.now() - 86_400_000), reportId });
  const record = /<record>[\s\S]*?<\/record>/.exec(xml)![0];
  const copies: string[] = [];
  let size = xml.length;
  for (let i = 0; size < bytes; i++) {
    const copy = record.replace(/<source_ip>[^<]*<\/source_ip>/, `<source_ip>10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}</source_ip>`);
    copies.push(copy);
    size += copy.length + 3;
  }
  return xml.replace('</feedback>', `  ${copies.join('\n  ')}\n</feedback>`);
}

async function upload(body: Buffer | string, contentType: string, query = '', key?: string) {
  const response = await service.api(`/v1/reports${query}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : new Uint8Array(body),
    ...(key !== undefined && { key }),
  });
  return { status: response.status, body: await response.json() };
}

describe('POST /v1/reports on REST', () => {
  it('a gzip report as the raw body is stored; the same again is a duplicate', async () => {
    const file = gzip(dmarcFixture('microsoft.xml', { domain, reportId: 'rest-raw-1' }));
    const first = await upload(file, 'application/x-gzip', '?filename=ms.xml.gz');
    expect(first).toEqual({
      status: 200,
      body: {
        files: [
          {
            file: 'ms.xml',
            status: 'stored',
            kind: 'dmarc',
            report_id: 'rest-raw-1',
            org_name: 'Enterprise Outlook',
            domain,
            id: expect.any(Number),
            messages: 40,
            authenticated: true,
            code: null,
            detail: null,
          },
        ],
        stored: 1,
        duplicates: 0,
      },
    });
    const again = await upload(file, 'application/gzip');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ stored: 0, duplicates: 1, files: [{ status: 'duplicate', code: 'duplicate' }] });
  });

  it('every format: zip (Google), .xml.gz in a zip (Mimecast), plain XML (Yahoo, RFC 9990), a message, TLS-RPT JSON and .json.gz', async () => {
    const cases: [string, Buffer, string, number][] = [
      ['application/zip', zip([{ name: 'g.xml', data: dmarcFixture('google.xml', { domain, reportId: 'fmt-google' }) }]), 'dmarc', 1],
      ['application/octet-stream', zip([{ name: 'm.xml.gz', data: gzip(dmarcFixture('mimecast.xml', { domain, reportId: 'fmt-mimecast' })) }]), 'dmarc', 1],
      ['application/xml', Buffer.from(dmarcFixture('yahoo.xml', { domain, reportId: 'fmt-yahoo' })), 'dmarc', 1],
      ['text/xml', Buffer.from(dmarcFixture('dmarcbis.xml', { domain, reportId: 'fmt-bis' })), 'dmarc', 1],
      [
        'message/rfc822',
        reportMessage({
          attachments: [
            { filename: 'f.xml.gz', contentType: 'application/gzip', data: gzip(dmarcFixture('fastmail.xml', { domain, reportId: 'fmt-fastmail' })) },
            { filename: 'y.xml', contentType: 'text/xml', data: Buffer.from(dmarcFixture('yahoo.xml', { domain, reportId: 'fmt-yahoo-2' })) },
          ],
        }),
        'dmarc',
        2,
      ],
      ['application/tlsrpt+gzip', gzip(reportFixture('google-tlsrpt.json').replaceAll('northwind-mail.test', domain)), 'tls', 1],
      ['application/tlsrpt+json', Buffer.from(reportFixture('microsoft-tlsrpt.json').replaceAll('northwind-mail.test', domain)), 'tls', 1],
    ];
    const answers = [];
    for (const [type, body] of cases) answers.push(await upload(body, type));
    expect(answers.map((a) => [a.status, a.body.stored, a.body.files.map((f: { kind: string }) => f.kind)])).toEqual(
      cases.map(([, , kind, n]) => [200, n, Array(n).fill(kind)]),
    );
  });

  it('JSON with base64 content works as the raw body does', async () => {
    const content = gzip(dmarcFixture('yahoo.xml', { domain, reportId: 'rest-json-1' })).toString('base64');
    const answer = await upload(JSON.stringify({ content, filename: 'yahoo.xml.gz' }), 'application/json');
    expect(answer.status).toBe(200);
    expect(answer.body.files).toEqual([expect.objectContaining({ file: 'yahoo.xml', status: 'stored', report_id: 'rest-json-1' })]);
  });

  it('bad input is a 400 with a detail: zip bomb, gzip bomb, XXE, invalid XML, invalid UTF-8, unknown domain, not a report', async () => {
    const cases: [string, Buffer | string, string][] = [
      ['application/zip', zip([{ name: 'b.xml', data: '<feedback/>', declaredSize: 2 ** 31 }]), 'decompression_bomb'],
      ['application/gzip', gzipSync(Buffer.alloc(40 * 1024 * 1024)), 'decompression_bomb'],
      ['application/xml', `<?xml version="1.0"?><!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]><feedback>&x;</feedback>`, 'dtd_refused'],
      ['application/xml', dmarcFixture('google.xml', { domain }).replace('</record>', '</recrd>'), 'invalid_xml'],
      ['application/gzip', gzip(Buffer.concat([Buffer.from('<feedback><a>'), Buffer.from([0xff, 0xfe]), Buffer.from('</a></feedback>')])), 'invalid_utf8'],
      ['application/xml', dmarcFixture('google.xml', { domain: 'nobody-owns-this.test', reportId: 'x' }), 'unknown_domain'],
      ['application/pdf', '%PDF-1.4', 'unknown_format'],
    ];
    const answers = [];
    for (const [type, body] of cases) answers.push(await upload(body, type));
    expect(answers.map((a) => [a.status, a.body.code, typeof a.body.detail])).toEqual(cases.map(([, , code]) => [400, code, 'string']));
  });

  it("a 3 MB report is taken past the listener's 1 MiB, raw or as base64 JSON; other paths keep the 1 MiB cap", { timeout: 120_000 }, async () => {
    const xml = bigReport('big-1', 3 * 1024 * 1024);
    expect(xml.length).toBeGreaterThan(3 * 1024 * 1024);
    const raw = await upload(xml, 'application/xml', '?filename=big.xml');
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ stored: 1, files: [{ status: 'stored', kind: 'dmarc', domain }] });
    const records = Number(
      (await service.services.db.selectFrom('reports').select('records').where('report_id', '=', 'big-1').executeTakeFirstOrThrow()).records,
    );
    expect(records).toBe(xml.split('<record>').length - 1);
    const json = await upload(JSON.stringify({ content: Buffer.from(xml).toString('base64'), filename: 'big.xml' }), 'application/json');
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ stored: 0, duplicates: 1 });
    const elsewhere = await service.api('/v1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://93.184.215.14/hooks', events: ['dmarc.failures'], pad: ' '.repeat(1024 * 1024) }),
    });
    expect(elsewhere.status).toBe(413);
  });

  it('an oversize report is refused with 413 saying the cap; invalid UTF-8 sent as XML text is refused at the door', async () => {
    // Past the file cap (10 MiB) but under the body cap: read, then refused.
    const over = await upload(Buffer.alloc(11 * 1024 * 1024, 0x20), 'application/octet-stream');
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({
      code: 'report_too_large',
      detail: expect.stringMatching(/^The file is 11534336 bytes\. A report file is taken up to 10485760 bytes \(10 MiB\)/),
    });
    // Past the body cap: refused before it is read whole.
    const huge = await upload(Buffer.alloc(15 * 1024 * 1024, 0x20), 'application/octet-stream');
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({
      code: 'body_too_large',
      detail: expect.stringMatching(/^The body is larger than 14046552 bytes\. A report file is taken up to 10485760 bytes/),
    });
    const bad = await upload(Buffer.from([0x3c, 0x61, 0xff, 0x3e]), 'application/xml');
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_text']);
  });

  it("duplicates are per account and domain: another account's report with the same organisation and id neither suppresses nor shows through", async () => {
    const other = await service.seedAccount();
    const otherDomain = (
      await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', other.accountId).orderBy('id').executeTakeFirstOrThrow()
    ).domain;
    const theirs = await upload(dmarcFixture('google.xml', { domain: otherDomain, reportId: 'collide-001' }), 'application/xml', '', other.key);
    expect(theirs.body).toMatchObject({ stored: 1, duplicates: 0 });
    const ours = await upload(dmarcFixture('google.xml', { domain, reportId: 'collide-001' }), 'application/xml');
    expect(ours.body).toMatchObject({ stored: 1, duplicates: 0, files: [{ status: 'stored', domain, code: null }] });
    // Each account lists its own report only.
    const listed = await service.api('/v1/portal/reports?limit=100');
    const mine = ((await listed.json()) as { data: { report_id: string; domain: string }[] }).data.filter((r) => r.report_id === 'collide-001');
    expect(mine).toEqual([expect.objectContaining({ domain })]);
    // The same report again is a duplicate for its own account, naming nothing of the other's.
    const again = await upload(dmarcFixture('google.xml', { domain, reportId: 'collide-001' }), 'application/xml');
    expect(again.body).toMatchObject({ stored: 0, duplicates: 1, files: [{ status: 'duplicate' }] });
    expect(JSON.stringify(again.body)).not.toContain(otherDomain);
  });

  it('needs the write scope', async () => {
    const { key: readKey } = await createApiKey(service.services.db, service.demo.accountId, ['read']);
    const file = Buffer.from(dmarcFixture('yahoo.xml', { domain, reportId: 'scope-1' }));
    expect((await upload(file, 'application/xml', '', readKey)).status).toBe(403);
    expect((await upload(file, 'application/xml', '', null as unknown as string)).status).toBe(401);
  });
});

describe('uploadReport on GraphQL and upload_report on MCP', () => {
  it('GraphQL takes base64 content', async () => {
    const content = Buffer.from(dmarcFixture('fastmail.xml', { domain, reportId: 'gql-1' })).toString('base64');
    const answer = await graphql(service, 'mutation($input: ReportUploadInput!) { uploadReport(input: $input) { stored files { status kind orgName } } }', {
      input: { content, filename: 'f.xml' },
    });
    expect(answer.body).toEqual({ data: { uploadReport: { stored: 1, files: [{ status: 'stored', kind: 'dmarc', orgName: 'Fastmail Pty Ltd' }] } } });
  });

  it('MCP takes base64 content and refuses a bomb with its reason', async () => {
    const client = new Client({ name: 'reports-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.apiUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.demo.key}` } } }),
    );
    try {
      const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { type: string; text: string }[])[0]!.text;
      const content = gzip(dmarcFixture('google.xml', { domain, reportId: 'mcp-1' })).toString('base64');
      const made = await client.callTool({ name: 'upload_report', arguments: { content, filename: 'g.xml.gz' } });
      expect(made.isError).toBeFalsy();
      expect(JSON.parse(text(made))).toMatchObject({ stored: 1, files: [{ status: 'stored', report_id: 'mcp-1', messages: 123 }] });
      const bomb = await client.callTool({ name: 'upload_report', arguments: { content: gzipSync(Buffer.alloc(30 * 1024 * 1024)).toString('base64') } });
      expect(bomb.isError).toBe(true);
      expect(text(bomb)).toMatch(/decompression_bomb|refused unread/);
    } finally {
      await client.close();
    }
  });
});
