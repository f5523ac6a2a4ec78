import { gzipSync } from 'node:zlib';
import nodemailer, { type Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../observability/metrics.js';
import { dmarcFixture, gzip, reportFixture, zip } from '../support/report-files.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** The report SMTP listener (REPORTS_SMTP_PORT), fed by nodemailer as receivers' MTAs would: real-shaped messages, several reports at once, bad input. */
let service: TestService;
let domain: string;
let transport: Transporter;

beforeAll(async () => {
  service = await startTestService({ env: { REPORTS_SMTP_PORT: '0', REPORTS_SMTP_MAX_BYTES: '200000', REPORTS_DOMAIN: 'reports.example.net' } });
  const row = await service.services.db
    .selectFrom('domains')
    .select('domain')
    .where('account_id', '=', service.demo.accountId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  domain = row.domain;
  transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: service.reportsSmtpPort!,
    secure: false,
    ignoreTLS: true,
    tls: { rejectUnauthorized: false },
  });
});
afterAll(async () => {
  transport?.close();
  await service?.close();
});

function send(
  attachments: { filename: string; content: Buffer; contentType: string }[],
  to = 'dmarc@reports.example.net',
  from = 'noreply-dmarc-support@google.com',
  subject = `Report domain: ${domain} Submitter: google.com Report-ID: <x>`,
) {
  return transport.sendMail({
    from,
    to,
    subject,
    text: 'This is an aggregate report.',
    attachments,
  });
}

async function stored(reportId: string) {
  const rows = await service.services.db.selectFrom('reports').select(['org_name', 'messages', 'received_via']).where('report_id', '=', reportId).execute();
  // bigint: a string on PostgreSQL, a number on PGlite.
  return rows.map((r) => ({ ...r, messages: Number(r.messages) }));
}

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
  return values.filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x)).reduce((s, v) => s + v.value, 0);
}

describe('reports by SMTP', () => {
  it('listens only when REPORTS_SMTP_PORT is set', () => {
    expect(service.reportsSmtpPort).toEqual(expect.any(Number));
  });

  it('Google: a zip attachment (application/zip) is stored; the same message again is stored once', async () => {
    const file = zip([{ name: `google.com!${domain}!1.xml`, data: dmarcFixture('google.xml', { domain, reportId: 'smtp-google' }) }]);
    const info = await send([{ filename: `google.com!${domain}!1.zip`, content: file, contentType: 'application/zip' }]);
    expect(info.accepted).toEqual(['dmarc@reports.example.net']);
    await send([{ filename: `google.com!${domain}!1.zip`, content: file, contentType: 'application/zip' }]);
    expect(await stored('smtp-google')).toEqual([{ org_name: 'google.com', messages: 123, received_via: 'smtp' }]);
  });

  it('several reports in one message, odd MIME types: Microsoft .xml.gz as application/octet-stream, Yahoo as application/x-gzip, TLS-RPT .json.gz to tls-reports@', async () => {
    await send(
      [
        { filename: 'ms.xml.gz', content: gzip(dmarcFixture('microsoft.xml', { domain, reportId: 'smtp-ms' })), contentType: 'application/octet-stream' },
        { filename: 'yahoo.xml.gz', content: gzip(dmarcFixture('yahoo.xml', { domain, reportId: 'smtp-yahoo' })), contentType: 'application/x-gzip' },
        {
          filename: 'google.com!tls.json.gz',
          content: gzip(
            reportFixture('google-tlsrpt.json')
              .replaceAll('northwind-mail.test', domain)
              .replace(/"report-id": *"/, '"report-id": "smtp-'),
          ),
          contentType: 'application/tlsrpt+gzip',
        },
      ],
      'TLS-Reports@Reports.Example.Net',
    );
    expect((await stored('smtp-ms')).map((r) => r.org_name)).toEqual(['Enterprise Outlook']);
    expect((await stored('smtp-yahoo')).map((r) => r.org_name)).toEqual(['Yahoo']);
    const tls = await service.services.db.selectFrom('reports').select('kind').where('report_id', 'like', 'smtp-2026%').execute();
    expect(tls).toEqual([{ kind: 'tls' }]);
  });

  it('Fastmail and Mimecast shapes (.xml.gz inside a zip, upper-case Pass, empty reason)', async () => {
    await send([
      { filename: 'f.xml.gz', content: gzip(dmarcFixture('fastmail.xml', { domain, reportId: 'smtp-fastmail' })), contentType: 'application/gzip' },
      {
        filename: 'mimecast.zip',
        content: zip([{ name: 'm.xml.gz', data: gzip(dmarcFixture('mimecast.xml', { domain, reportId: 'smtp-mimecast' })) }]),
        contentType: 'application/x-zip-compressed',
      },
    ]);
    expect((await stored('smtp-fastmail')).length + (await stored('smtp-mimecast')).length).toBe(2);
  });

  it('mail for any other address is refused at RCPT with 550', async () => {
    const refused = await send(
      [{ filename: 'a.xml', content: Buffer.from(dmarcFixture('yahoo.xml', { domain, reportId: 'smtp-wrong-rcpt' })), contentType: 'text/xml' }],
      'abuse@reports.example.net',
    ).then(
      () => null,
      (error: { responseCode?: number }) => error.responseCode,
    );
    expect(refused).toBe(550);
    expect(await stored('smtp-wrong-rcpt')).toEqual([]);
  });

  it('a message over REPORTS_SMTP_MAX_BYTES is refused with 552', async () => {
    const big = Buffer.from(Array.from({ length: 300_000 }, (_, i) => String.fromCharCode(65 + (i % 26))).join(''));
    const refused = await send([{ filename: 'big.xml', content: big, contentType: 'application/octet-stream' }]).then(
      () => null,
      (error: { responseCode?: number }) => error.responseCode,
    );
    expect(refused).toBe(552);
  });

  it('bad reports are accepted as mail but stored nowhere, each counted by reason; an unknown domain is dropped and counted', async () => {
    const bombs = await metric('report_refusals_total', { code: 'decompression_bomb' });
    const dtd = await metric('report_refusals_total', { code: 'dtd_refused' });
    const utf8 = await metric('report_refusals_total', { code: 'invalid_utf8' });
    const unknown = await metric('report_files_total', { via: 'smtp', outcome: 'unknown_domain' });
    await send([
      { filename: 'bomb.xml.gz', content: gzipSync(Buffer.alloc(60 * 1024 * 1024)), contentType: 'application/gzip' },
      {
        filename: 'xxe.xml',
        content: Buffer.from('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "http://169.254.169.254/">]><feedback>&x;</feedback>'),
        contentType: 'text/xml',
      },
      { filename: 'bad.xml.gz', content: gzip(Buffer.from([0x3c, 0x66, 0x3e, 0xc0, 0xaf, 0x3c, 0x2f, 0x66, 0x3e])), contentType: 'application/gzip' },
      {
        filename: 'other.xml',
        content: Buffer.from(dmarcFixture('google.xml', { domain: 'nobody-owns-this.test', reportId: 'smtp-unknown' })),
        contentType: 'text/xml',
      },
    ]);
    expect([
      (await metric('report_refusals_total', { code: 'decompression_bomb' })) - bombs,
      (await metric('report_refusals_total', { code: 'dtd_refused' })) - dtd,
      (await metric('report_refusals_total', { code: 'invalid_utf8' })) - utf8,
      (await metric('report_files_total', { via: 'smtp', outcome: 'unknown_domain' })) - unknown,
    ]).toEqual([1, 1, 1, 1]);
    expect(await stored('smtp-unknown')).toEqual([]);
  });

  it('a message that names only domains no account has is dropped before anything in it is unpacked or parsed, and counted', async () => {
    const bombs = await metric('report_refusals_total', { code: 'decompression_bomb' });
    const dropped = await metric('report_smtp_refusals_total', { reason: 'unknown_domain' });
    const info = await send(
      [{ filename: 'google.com!nobody-owns-this.test!1!2.xml.gz', content: gzipSync(Buffer.alloc(60 * 1024 * 1024)), contentType: 'application/gzip' }],
      undefined,
      undefined,
      'Report Domain: nobody-owns-this.test Submitter: google.com Report-ID: <drop-1>',
    );
    // Accepted (a refusal would tell a stranger which domains are customers'), but never unpacked: no bomb was seen.
    expect(info.accepted).toEqual(['dmarc@reports.example.net']);
    expect((await metric('report_smtp_refusals_total', { reason: 'unknown_domain' })) - dropped).toBe(1);
    expect((await metric('report_refusals_total', { code: 'decompression_bomb' })) - bombs).toBe(0);
  });

  it('a message that names no domain at all (neither subject nor file name) is dropped unread', async () => {
    const before = await metric('report_smtp_refusals_total', { reason: 'no_domain' });
    await send(
      [{ filename: 'report.xml', content: Buffer.from(dmarcFixture('yahoo.xml', { domain, reportId: 'smtp-unnamed' })), contentType: 'text/xml' }],
      undefined,
      undefined,
      'Aggregate report',
    );
    expect((await metric('report_smtp_refusals_total', { reason: 'no_domain' })) - before).toBe(1);
    expect(await stored('smtp-unnamed')).toEqual([]);
  });

  it('a report inside for a domain the message did not name is not stored, even when another account owns it', async () => {
    const other = await service.seedAccount();
    const otherDomain = (await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', other.accountId).executeTakeFirstOrThrow())
      .domain;
    await send([
      {
        filename: `google.com!${domain}!1!2.xml`,
        content: Buffer.from(dmarcFixture('yahoo.xml', { domain: otherDomain, reportId: 'smtp-smuggled' })),
        contentType: 'text/xml',
      },
    ]);
    expect(await stored('smtp-smuggled')).toEqual([]);
  });
});
