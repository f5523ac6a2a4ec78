import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestReports } from '../../resolvers/reports/ingest-reports.js';
import { deleteReportsEndedBefore } from '../../db/reports.js';
import { registry } from '../../observability/metrics.js';
import { dmarcFixture, gzip, reportFixture } from '../support/report-files.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** Storage of parsed reports: once per (org, report id), only for a domain an account owns (else dropped and counted), pruned by age. */
let service: TestService;
let domain: string;

async function counter(outcome: string, via = 'smtp'): Promise<number> {
  const metric = await registry.getSingleMetric('report_files_total')?.get();
  return metric?.values.filter((v) => v.labels.outcome === outcome && v.labels.via === via).reduce((s, v) => s + v.value, 0) ?? 0;
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
function pool() {
  const running = service.services.reportPool;
  if (!running) throw new Error('The service started no report pool');
  return running;
}
afterAll(async () => {
  await service?.close();
});

describe('storing reports', () => {
  it('a report is stored with its rows; the same report again is a duplicate, stored once', async () => {
    const db = service.services.db;
    const xml = gzip(dmarcFixture('google.xml', { domain, reportId: 'store-once-1' }));
    const [first] = await ingestReports(db, pool(), 'google.xml.gz', xml, { via: 'smtp', allowMessage: true });
    expect(first).toMatchObject({ status: 'stored', kind: 'dmarc', domain, orgName: 'google.com', reportId: 'store-once-1', messages: 123 });
    const before = await counter('duplicate');
    const [again] = await ingestReports(db, pool(), 'google.xml.gz', xml, { via: 'smtp', allowMessage: true });
    expect(again).toMatchObject({ status: 'duplicate', id: null, code: 'duplicate' });
    expect(await counter('duplicate')).toBe(before + 1);
    const stored = await db.selectFrom('reports').select(['id', 'messages', 'messages_passed', 'records']).where('report_id', '=', 'store-once-1').execute();
    expect(stored.map((r) => [Number(r.messages), Number(r.messages_passed), r.records])).toEqual([[123, 120, 2]]);
    const rows = await db
      .selectFrom('dmarc_report_rows')
      .select(['source_ip', 'messages', 'dmarc_pass', 'dkim_aligned', 'spf_aligned', 'spf_result'])
      .where('report_id', '=', stored[0]!.id)
      .orderBy('source_ip')
      .execute();
    expect(rows).toEqual([
      { source_ip: '203.0.113.77', messages: 3, dmarc_pass: false, dkim_aligned: false, spf_aligned: false, spf_result: 'softfail' },
      { source_ip: '209.85.220.41', messages: 120, dmarc_pass: true, dkim_aligned: true, spf_aligned: true, spf_result: 'pass' },
    ]);
  });

  it('a report for a domain no account owns is dropped and counted', async () => {
    const before = await counter('unknown_domain');
    const [outcome] = await ingestReports(service.services.db, pool(), 'x.xml', Buffer.from(dmarcFixture('yahoo.xml', { domain: 'nobody-owns-this.test' })), {
      via: 'smtp',
      allowMessage: true,
    });
    expect(outcome).toMatchObject({ status: 'unknown_domain', domain: 'nobody-owns-this.test', detail: expect.stringMatching(/dropped/) });
    expect(await counter('unknown_domain')).toBe(before + 1);
    const rows = await service.services.db.selectFrom('reports').select('id').where('domain', '=', 'nobody-owns-this.test').execute();
    expect(rows).toEqual([]);
  });

  it("an upload for another account's domain is refused", async () => {
    const other = await service.seedAccount();
    const [outcome] = await ingestReports(service.services.db, pool(), 'x.xml', Buffer.from(dmarcFixture('yahoo.xml', { domain, reportId: 'other-acct' })), {
      via: 'upload',
      accountId: other.accountId,
      allowMessage: true,
    });
    expect(outcome).toMatchObject({ status: 'unknown_domain', detail: expect.stringMatching(/not a domain of your account/) });
  });

  it('a TLS-RPT report is stored with its policies', async () => {
    const json = reportFixture('microsoft-tlsrpt.json').replaceAll('northwind-mail.test', domain);
    const [outcome] = await ingestReports(service.services.db, pool(), 'ms.json', Buffer.from(json), {
      via: 'upload',
      accountId: service.demo.accountId,
      allowMessage: false,
    });
    expect(outcome).toMatchObject({ status: 'stored', kind: 'tls', messages: 100 });
    const policies = await service.services.db
      .selectFrom('tls_report_policies')
      .select(['successful_sessions', 'failed_sessions', 'failures', 'day'])
      .execute();
    expect(policies.map((p) => [Number(p.successful_sessions), Number(p.failed_sessions), JSON.parse(p.failures)[0].result_type])).toEqual([
      [95, 5, 'certificate-expired'],
    ]);
  });

  it('a refused file is counted by reason and stores nothing', async () => {
    const [outcome] = await ingestReports(service.services.db, pool(), 'x.xml', Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><feedback/>'), {
      via: 'smtp',
      allowMessage: true,
    });
    expect(outcome).toMatchObject({ status: 'refused', code: 'dtd_refused' });
    const metric = await registry.getSingleMetric('report_refusals_total')?.get();
    expect(metric?.values.find((v) => v.labels.code === 'dtd_refused')?.value).toBeGreaterThanOrEqual(1);
  });

  it('retention deletes reports whose period ended before the cut-off, with their rows', async () => {
    const db = service.services.db;
    const old = new Date(Date.now() - 200 * 86_400_000);
    const [outcome] = await ingestReports(db, pool(), 'old.xml', Buffer.from(dmarcFixture('google.xml', { domain, reportId: 'old-one', begin: old })), {
      via: 'smtp',
      allowMessage: true,
    });
    expect(outcome?.status).toBe('stored');
    const deleted = await deleteReportsEndedBefore(db, new Date(Date.now() - 180 * 86_400_000));
    expect(deleted).toBe(1);
    expect(await db.selectFrom('dmarc_report_rows').select('report_id').where('report_id', '=', outcome!.id!).execute()).toEqual([]);
    expect(await db.selectFrom('reports').select('id').where('report_id', '=', 'store-once-1').execute()).toHaveLength(1);
  });
});
