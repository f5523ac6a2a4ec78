import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dmarcFixture } from '../support/report-files.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The report listener holds up against one address: a cap on its connections, a minimum data rate
 * while it is the client's turn, a deadline for a whole message; postmaster@ is taken (RFC 5321);
 * connections and refusals show in /metrics. The deadlines are short settings here, and every test
 * waits for the event it expects (a greeting, a close), never for a fixed time.
 */
const REPORTS_DOMAIN = 'reports.example.net';
let service: TestService;
let domain: string;

beforeAll(async () => {
  service = await startTestService({
    env: {
      REPORTS_SMTP_PORT: '0',
      REPORTS_DOMAIN,
      METRICS_PORT: '0',
      REPORTS_SMTP_PER_ADDRESS: '2',
      REPORTS_SMTP_MESSAGE_DEADLINE_MS: '1500',
      REPORTS_SMTP_MIN_BYTES_PER_SECOND: '20',
      REPORTS_SMTP_RATE_WINDOW_MS: '1000',
    },
  });
  domain = (
    await service.services.db.selectFrom('domains').select('domain').where('account_id', '=', service.demo.accountId).orderBy('id').executeTakeFirstOrThrow()
  ).domain;
});
afterAll(async () => {
  await service?.close();
});

/** A raw SMTP client: each reply line as it comes, and the close. */
function client(): { socket: Socket; line(): Promise<string>; closed: Promise<void>; send(text: string): void } {
  const socket = connect(service.reportsSmtpPort ?? 0, '127.0.0.1');
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    let end = buffered.indexOf('\r\n');
    while (end !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
      end = buffered.indexOf('\r\n');
    }
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closed,
    line: () => {
      const ready = lines.shift();
      return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    send: (text) => socket.write(text),
  };
}

async function metrics(): Promise<string> {
  const response = await fetch(service.metricsUrl ?? '');
  return response.text();
}

function counter(text: string, name: string, label: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${label}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('the report listener holds up', () => {
  it('a third connection from one address is answered 421 while two are open; once one closes, a new one is greeted', async () => {
    const first = client();
    const second = client();
    expect(await first.line()).toMatch(/^220 /);
    expect(await second.line()).toMatch(/^220 /);
    const third = client();
    expect(await third.line()).toMatch(/^421 .*Too many connections/);
    await third.closed;
    first.socket.destroy();
    await first.closed;
    // The server learns of the close on its own time: ask until it greets again.
    await vi.waitFor(
      async () => {
        const next = client();
        const greeting = await next.line();
        next.socket.destroy();
        expect(greeting).toMatch(/^220 /);
      },
      { timeout: 10_000, interval: 50 },
    );
    second.socket.destroy();
    const text = await metrics();
    expect(counter(text, 'report_smtp_connections_total', 'outcome="per_address"')).toBeGreaterThanOrEqual(1);
    expect(counter(text, 'report_smtp_connections_total', 'outcome="accepted"')).toBeGreaterThanOrEqual(3);
  });

  it('a connection trickling bytes below the minimum rate is dropped', async () => {
    const before = counter(await metrics(), 'report_smtp_refusals_total', 'reason="too_slow"');
    const slow = client();
    expect(await slow.line()).toMatch(/^220 /);
    // Two bytes a second against a minimum of 20: without a rate it would stay open as long as it trickles.
    const trickle = setInterval(() => slow.send('E'), 500);
    await slow.closed;
    clearInterval(trickle);
    expect(counter(await metrics(), 'report_smtp_refusals_total', 'reason="too_slow"')).toBe(before + 1);
  });

  it('a message still arriving past the message deadline is dropped, however fast its bytes come', async () => {
    const before = counter(await metrics(), 'report_smtp_refusals_total', 'reason="deadline"');
    const sender = client();
    expect(await sender.line()).toMatch(/^220 /);
    sender.send('HELO sender.example\r\n');
    expect(await sender.line()).toMatch(/^250/);
    sender.send('MAIL FROM:<noreply-dmarc-support@google.com>\r\n');
    expect(await sender.line()).toMatch(/^250/);
    sender.send(`RCPT TO:<dmarc@${REPORTS_DOMAIN}>\r\n`);
    expect(await sender.line()).toMatch(/^250/);
    sender.send('DATA\r\n');
    expect(await sender.line()).toMatch(/^354/);
    // 100 bytes every 100 ms: well above the minimum rate, never ending.
    const endless = setInterval(() => sender.send(`${'x'.repeat(98)}\r\n`), 100);
    await sender.closed;
    clearInterval(endless);
    expect(counter(await metrics(), 'report_smtp_refusals_total', 'reason="deadline"')).toBe(before + 1);
  });

  it('mail to postmaster@ is taken (and, without a forward address, logged and dropped); a report still arrives', async () => {
    const before = counter(await metrics(), 'report_smtp_refusals_total', 'reason="postmaster"');
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.reportsSmtpPort ?? 0, secure: false, ignoreTLS: true });
    try {
      const info = await transport.sendMail({ from: 'someone@example.org', to: `postmaster@${REPORTS_DOMAIN}`, subject: 'Hello', text: 'Your server.' });
      expect(info.accepted).toEqual([`postmaster@${REPORTS_DOMAIN}`]);
      await transport.sendMail({
        from: 'noreply-dmarc-support@google.com',
        to: `dmarc@${REPORTS_DOMAIN}`,
        subject: `Report Domain: ${domain} Submitter: google.com Report-ID: <limits-1>`,
        text: 'This is an aggregate report.',
        attachments: [
          { filename: `google.com!${domain}!1!2.xml`, content: dmarcFixture('google.xml', { domain, reportId: 'limits-1' }), contentType: 'text/xml' },
        ],
      });
    } finally {
      transport.close();
    }
    expect(counter(await metrics(), 'report_smtp_refusals_total', 'reason="postmaster"')).toBe(before + 1);
    expect(await service.services.db.selectFrom('reports').select('report_id').where('report_id', '=', 'limits-1').execute()).toEqual([
      { report_id: 'limits-1' },
    ]);
  });
});
