import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor as waitForState } from '../support/wait-for.js';
import { readEnvironment } from '../../config/environment.js';
import { serveReportSmtp } from '../../server/serve-report-smtp.js';
import { dmarcFixture, gzip } from '../support/report-files.js';
import { createTestCa, type TestCa } from '../support/test-ca.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * STARTTLS on the report listener: offered with REPORTS_SMTP_TLS_CERT and REPORTS_SMTP_TLS_KEY (a
 * certificate made by the test's own CA), used by a sender that requires it, and not advertised
 * without a certificate.
 */
const REPORTS_DOMAIN = 'reports.example.net';
let ca: TestCa;
let service: TestService;
let domain: string;

beforeAll(async () => {
  ca = createTestCa('Report SMTP Test CA');
  const issued = ca.issue({ hosts: [REPORTS_DOMAIN] });
  writeFileSync(join(ca.dir, 'smtp-chain.pem'), issued.chainPem);
  writeFileSync(join(ca.dir, 'smtp-key.pem'), issued.keyPem);
  service = await startTestService({
    env: {
      REPORTS_SMTP_PORT: '0',
      REPORTS_DOMAIN,
      REPORTS_SMTP_TLS_CERT: join(ca.dir, 'smtp-chain.pem'),
      REPORTS_SMTP_TLS_KEY: join(ca.dir, 'smtp-key.pem'),
    },
  });
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
  ca?.close();
});

/** The listener's answer to EHLO, read over a plain socket: the extensions it advertises. */
async function ehloLines(port: number): Promise<string[]> {
  const socket: Socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  const waitFor = (pattern: RegExp) => waitForState(`${pattern} from the SMTP server`, () => pattern.test(text), 20_000, 20);
  await waitFor(/^220 /m);
  socket.write('EHLO tester.example\r\n');
  await waitFor(/^250 /m);
  socket.end('QUIT\r\n');
  return text.split('\r\n').filter((line) => line.startsWith('250'));
}

function report(reportId: string) {
  return [
    {
      filename: `google.com!${domain}!1!2!${reportId}.xml.gz`,
      contentType: 'application/gzip',
      content: gzip(dmarcFixture('google.xml', { domain, begin: new Date(Date.now() - 86_400_000), reportId })),
    },
  ];
}

describe('STARTTLS with a certificate', () => {
  it('advertises STARTTLS, and a sender that requires TLS and checks the certificate delivers a report', async () => {
    expect(await ehloLines(service.reportsSmtpPort!)).toContain('250-STARTTLS');
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: service.reportsSmtpPort!,
      secure: false,
      requireTLS: true,
      tls: { ca: ca.certPem, servername: REPORTS_DOMAIN, rejectUnauthorized: true },
    });
    try {
      const info = await transport.sendMail({
        from: 'noreply-dmarc-support@google.com',
        to: `dmarc@${REPORTS_DOMAIN}`,
        subject: 'Report',
        text: 'Report.',
        attachments: report('tls-1'),
      });
      expect(info.response).toMatch(/^250/);
    } finally {
      transport.close();
    }
    const rows = await service.services.db.selectFrom('reports').select(['org_name', 'received_via']).where('report_id', '=', 'tls-1').execute();
    expect(rows).toEqual([{ org_name: 'google.com', received_via: 'smtp' }]);
  });

  it('the certificate is ours: a sender that trusts another authority refuses the handshake, and nothing is stored', async () => {
    const other = createTestCa('Another CA');
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: service.reportsSmtpPort!,
      secure: false,
      requireTLS: true,
      tls: { ca: other.certPem, servername: REPORTS_DOMAIN, rejectUnauthorized: true },
    });
    try {
      await expect(
        transport.sendMail({
          from: 'noreply-dmarc-support@google.com',
          to: `dmarc@${REPORTS_DOMAIN}`,
          subject: 'Report',
          text: 'Report.',
          attachments: report('tls-2'),
        }),
      ).rejects.toThrow(/certificate/i);
    } finally {
      transport.close();
      other.close();
    }
    expect(await service.services.db.selectFrom('reports').select('id').where('report_id', '=', 'tls-2').execute()).toEqual([]);
  });
});

function pool() {
  const running = service.services.reportPool;
  if (!running) throw new Error('The service started no report pool');
  return running;
}

describe('without a certificate', () => {
  it("STARTTLS is neither advertised nor taken (smtp-server's bundled key is no one's certificate), so a sender that requires TLS cannot deliver", async () => {
    const plain = await serveReportSmtp({
      port: 0,
      host: '127.0.0.1',
      reportsDomain: REPORTS_DOMAIN,
      maxBytes: 100_000,
      db: service.services.db,
      pool: pool(),
    });
    try {
      const lines = await ehloLines(plain.port);
      expect(lines.some((l) => /STARTTLS/.test(l))).toBe(false);
      expect(lines).toContain('250-8BITMIME');
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: plain.port,
        secure: false,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
      });
      try {
        await expect(
          transport.sendMail({
            from: 'noreply-dmarc-support@google.com',
            to: `dmarc@${REPORTS_DOMAIN}`,
            subject: 'Report',
            text: 'Report.',
            attachments: report('tls-3'),
          }),
        ).rejects.toThrow(/STARTTLS/);
      } finally {
        transport.close();
      }
    } finally {
      await plain.close();
    }
  });
});

describe('certificate settings', () => {
  it('one of the pair alone is refused at start, naming both', () => {
    expect(() => readEnvironment({ REPORTS_SMTP_TLS_CERT: '/etc/ssl/reports.pem' })).toThrow(
      /REPORTS_SMTP_TLS_CERT and REPORTS_SMTP_TLS_KEY go together.*only REPORTS_SMTP_TLS_CERT is set/,
    );
    expect(() => readEnvironment({ REPORTS_SMTP_TLS_KEY: '/etc/ssl/reports.key' })).toThrow(/only REPORTS_SMTP_TLS_KEY is set/);
  });

  it('a file that cannot be read, or holds no key, stops the listener from starting with a sentence naming the setting', async () => {
    const base = { port: 0, host: '127.0.0.1', reportsDomain: REPORTS_DOMAIN, maxBytes: 100_000, db: service.services.db, pool: pool() };
    await expect(serveReportSmtp({ ...base, tls: { certFile: join(ca.dir, 'missing.pem'), keyFile: join(ca.dir, 'smtp-key.pem') } })).rejects.toThrow(
      /REPORTS_SMTP_TLS_CERT ".*missing\.pem" cannot be read \(ENOENT\)/,
    );
    await expect(serveReportSmtp({ ...base, tls: { certFile: join(ca.dir, 'smtp-chain.pem'), keyFile: join(ca.dir, 'smtp-chain.pem') } })).rejects.toThrow(
      /REPORTS_SMTP_TLS_KEY ".*smtp-chain\.pem" holds no PEM private key/,
    );
  });
});
