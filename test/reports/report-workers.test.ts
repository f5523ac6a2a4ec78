import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registry } from '../../observability/metrics.js';
import { dmarcFixture, gzip } from '../support/report-files.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Reports are unpacked and parsed in worker threads with a bounded queue (REPORTS_WORKERS,
 * REPORTS_QUEUE): with one thread and one place in the queue, a third report waits for nothing: REST
 * answers 503 with Retry-After and SMTP 451, and both go through once the pool has room.
 */
let service: TestService;
let domain: string;

beforeAll(async () => {
  service = await startTestService({ env: { REPORTS_WORKERS: '1', REPORTS_QUEUE: '1', REPORTS_SMTP_PORT: '0', REPORTS_DOMAIN: 'reports.example.net' } });
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

/** Google's report with `records` records from distinct addresses: about 600 bytes of XML each, seconds of parsing for 12,000 (sent plain: gzip would pass the 100:1 ratio cap). */
function bigReport(reportId: string, records: number): Buffer {
  const xml = dmarcFixture('google.xml', { domain, begin: new Date(Date.now() - 86_400_000), reportId });
  const record = /<record>[\s\S]*?<\/record>/.exec(xml)?.[0] ?? '';
  const copies = Array.from({ length: records }, (_, i) =>
    record.replace(/<source_ip>[^<]*<\/source_ip>/, `<source_ip>10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}</source_ip>`),
  );
  return Buffer.from(xml.replace('</feedback>', `${copies.join('\n')}\n</feedback>`));
}

function upload(body: Buffer) {
  return service.api('/v1/reports', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(body) });
}

async function tasks(state: 'running' | 'waiting'): Promise<number> {
  const values = (await registry.getSingleMetric('report_tasks')?.get())?.values ?? [];
  return values.filter((v) => v.labels.state === state).reduce((s, v) => s + v.value, 0);
}

describe('the report worker pool', () => {
  it('a full queue answers REST 503 with Retry-After and a sentence, and SMTP 451; both go through once there is room', async () => {
    const first = upload(bigReport('pool-1', 12_000));
    await vi.waitFor(async () => expect(await tasks('running')).toBe(1), { timeout: 60_000, interval: 20 });
    const second = upload(bigReport('pool-2', 12_000));
    await vi.waitFor(async () => expect(await tasks('waiting')).toBe(1), { timeout: 60_000, interval: 20 });

    const small = gzip(dmarcFixture('yahoo.xml', { domain, reportId: 'pool-small' }));
    const refused = await upload(small);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).detail).toMatch(/busy.*again/i);

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.reportsSmtpPort ?? 0, secure: false, ignoreTLS: true });
    try {
      const smtp = await transport
        .sendMail({
          from: 'noreply-dmarc-support@google.com',
          to: 'dmarc@reports.example.net',
          subject: `Report Domain: ${domain} Submitter: google.com Report-ID: <pool-smtp>`,
          text: 'This is an aggregate report.',
          attachments: [{ filename: `google.com!${domain}!1!2.xml.gz`, content: small, contentType: 'application/gzip' }],
        })
        .then(
          () => null,
          (error: { responseCode?: number }) => error.responseCode,
        );
      expect(smtp).toBe(451);
    } finally {
      transport.close();
    }

    for (const answer of [await first, await second])
      expect({ status: answer.status, body: await answer.json() }).toMatchObject({ status: 200, body: { stored: 1 } });
    const again = await upload(small);
    expect(again.status).toBe(200);
    expect((await again.json()).stored).toBe(1);
  });
});
