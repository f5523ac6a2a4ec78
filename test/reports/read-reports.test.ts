import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readReports, type ReportFileOutcome } from '../../resolvers/reports/read-reports.js';
import type { DmarcReport } from '../../resolvers/reports/parse-dmarc.js';
import type { TlsReport } from '../../resolvers/reports/parse-tls-rpt.js';
import { REPORT_LIMITS, type ReportLimits } from '../../resolvers/reports/report-limits.js';
import { gzip, reportFixture, reportMessage, zip } from '../support/report-files.js';

function reports(outcomes: ReportFileOutcome[]) {
  return outcomes.map((o) => ('report' in o ? o.report : { refused: o.refusal.code, detail: o.refusal.detail }));
}

async function one(name: string, bytes: Buffer): Promise<DmarcReport> {
  const [outcome] = await readReports(name, bytes, { allowMessage: true });
  expect(outcome && 'report' in outcome ? outcome.report.kind : outcome).toBe('dmarc');
  return (outcome as { report: DmarcReport }).report;
}

async function refusal(name: string, bytes: Buffer, limits: ReportLimits = REPORT_LIMITS) {
  const outcomes = await readReports(name, bytes, { allowMessage: true, limits });
  expect(outcomes).toHaveLength(1);
  return (outcomes[0] as { refusal: { code: string; detail: string } }).refusal;
}

describe('DMARC aggregate reports as receivers send them', () => {
  it('Google: a zip named google.com!domain!begin!end.zip with one XML', async () => {
    const report = await one(
      'google.com!northwind-mail.test!1795392000!1795478399.zip',
      zip([{ name: 'google.com!northwind-mail.test!1795392000!1795478399.xml', data: reportFixture('google.xml') }]),
    );
    expect(report).toMatchObject({ schema: '1.0', orgName: 'google.com', reportId: '13893129541857623458', domain: 'northwind-mail.test', skippedRecords: 0 });
    expect(report.begin.toISOString()).toBe(new Date(1795392000 * 1000).toISOString());
    expect(report.policy).toEqual({ p: 'none', sp: 'none', adkim: 'r', aspf: 'r', pct: 100 });
    expect(report.records).toEqual([
      expect.objectContaining({
        sourceIp: '209.85.220.41',
        count: 120,
        dmarcPass: true,
        dkimAligned: true,
        spfAligned: true,
        dkimSelector: 'google',
        disposition: 'none',
      }),
      expect.objectContaining({ sourceIp: '203.0.113.77', count: 3, dmarcPass: false, dkimResult: null, spfResult: 'softfail', spfDomain: 'spoofer.example' }),
    ]);
  });

  it('Microsoft: gzip, IPv6 sources, DKIM aligned but SPF not', async () => {
    const report = await one('enterprise.protection.outlook.com!northwind-mail.test!1795392000!1795478400.xml.gz', gzip(reportFixture('microsoft.xml')));
    expect(report.orgName).toBe('Enterprise Outlook');
    expect(report.records).toEqual([
      expect.objectContaining({
        sourceIp: '2a01:111:f403:c111::3',
        count: 40,
        dkimAligned: true,
        spfAligned: false,
        dmarcPass: true,
        envelopeFrom: 'bounce.northwind-mail.test',
      }),
    ]);
  });

  it('Yahoo: gzip in two members with trailing zero bytes', async () => {
    const xml = Buffer.from(reportFixture('yahoo.xml'));
    const framed = Buffer.concat([gzipSync(xml.subarray(0, 300)), gzipSync(xml.subarray(300)), Buffer.alloc(16)]);
    const report = await one('yahoo.com!northwind-mail.test!1795392000!1795478399.xml.gz', framed);
    expect(report).toMatchObject({ orgName: 'Yahoo', reportId: '1795392000.482913' });
    expect(report.records.map((r) => r.count)).toEqual([25]);
  });

  it('Fastmail: gzip; an overridden disposition keeps its reason', async () => {
    const report = await one('fastmail.com!northwind-mail.test!1795392000!1795478399.xml.gz', gzip(reportFixture('fastmail.xml')));
    expect(report.records).toEqual([
      expect.objectContaining({ dkimAligned: false, spfAligned: true, dmarcPass: true, reasons: ['forwarded'], dkimResult: 'fail' }),
    ]);
  });

  it('Mimecast: a .xml.gz inside a zip, upper-case Pass, an empty reason, a mixed-case domain, a record without an address', async () => {
    const inner = gzip(reportFixture('mimecast.xml'));
    const report = await one('mimecast.zip', zip([{ name: 'northwind-mail.test!mimecast.org!1795392000!1795478399.xml.gz', data: inner, store: true }]));
    expect(report.domain).toBe('northwind-mail.test');
    expect(report.skippedRecords).toBe(1);
    expect(report.records).toEqual([
      expect.objectContaining({
        sourceIp: '209.85.220.41',
        disposition: 'none',
        dkimAligned: true,
        spfAligned: true,
        dkimResult: 'pass',
        spfResult: 'pass',
        reasons: [],
      }),
    ]);
  });

  it('RFC 9990 (namespace urn:ietf:params:xml:ns:dmarc-2.0), plain XML', async () => {
    const report = await one('bis.xml', Buffer.from(reportFixture('dmarcbis.xml')));
    expect(report).toMatchObject({ schema: '2.0', orgName: 'mail.example.net', policy: { p: 'quarantine', adkim: 's', pct: null } });
    expect(report.records).toEqual([expect.objectContaining({ disposition: 'quarantine', dmarcPass: false, dkimResult: 'pass', dkimDomain: 'other.example' })]);
  });

  it('a message with several reports: each attachment read, whatever its MIME type', async () => {
    const message = reportMessage({
      attachments: [
        { filename: 'google.zip', contentType: 'application/octet-stream', data: zip([{ name: 'a.xml', data: reportFixture('google.xml') }]) },
        { filename: 'ms.xml.gz', contentType: 'application/x-gzip', data: gzip(reportFixture('microsoft.xml')) },
        { filename: 'tls.json.gz', contentType: 'application/tlsrpt+gzip', data: gzip(reportFixture('google-tlsrpt.json')) },
      ],
    });
    const outcomes = await readReports('message.eml', message, { allowMessage: true });
    expect(outcomes.map((o) => ('report' in o ? `${o.report.kind}:${o.report.orgName}` : o.refusal.code))).toEqual([
      'dmarc:google.com',
      'dmarc:Enterprise Outlook',
      'tls:Google Inc.',
    ]);
  });
});

describe('TLS-RPT reports (RFC 8460)', () => {
  it('Google: gzip, all sessions successful', async () => {
    const [outcome] = await readReports('google.com!northwind-mail.test!2026-11-24T00:00:00Z.json.gz', gzip(reportFixture('google-tlsrpt.json')), {
      allowMessage: false,
    });
    const report = (outcome as { report: TlsReport }).report;
    expect(report).toMatchObject({ kind: 'tls', orgName: 'Google Inc.', domain: 'northwind-mail.test' });
    expect(report.policies).toEqual([
      { policyType: 'sts', policyDomain: 'northwind-mail.test', mxHost: null, successfulSessions: 310, failedSessions: 0, failures: [] },
    ]);
  });

  it('Microsoft: plain JSON with failure details', async () => {
    const [outcome] = await readReports('microsoft.json', Buffer.from(reportFixture('microsoft-tlsrpt.json')), { allowMessage: false });
    const report = (outcome as { report: TlsReport }).report;
    expect(report.policies[0]).toEqual({
      policyType: 'sts',
      policyDomain: 'northwind-mail.test',
      mxHost: 'smtp.google.com',
      successfulSessions: 95,
      failedSessions: 5,
      failures: [{ resultType: 'certificate-expired', sendingMtaIp: '2a01:111:f403:2412::700', receivingMxHostname: 'smtp.google.com', failedSessions: 5 }],
    });
  });
});

describe('bad input is refused with a reason, never a crash', () => {
  it('a gzip bomb (50 MB of zeros in ~50 KB) is refused by ratio before it is kept', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    expect(await refusal('bomb.xml.gz', bomb)).toMatchObject({ code: 'decompression_bomb', detail: expect.stringMatching(/refused unread/) });
  });

  it('gzip inside gzip inside gzip is refused: each layer could expand again', async () => {
    const xml = reportFixture('google.xml');
    expect(reports(await readReports('twice.xml.gz.gz', gzipSync(gzipSync(xml)), { allowMessage: true }))[0]).toMatchObject({ kind: 'dmarc' });
    expect(await refusal('thrice.xml.gz.gz.gz', gzipSync(gzipSync(gzipSync(xml))))).toMatchObject({
      code: 'bad_archive',
      detail: expect.stringMatching(/gzip inside gzip more than 2 deep/),
    });
  });

  it('one message cannot multiply the per-file caps: its attachments share one unpacking budget', async () => {
    // Four attachments of ~1 MiB each once unpacked, under a 3 MiB budget for the whole message.
    const limits: ReportLimits = { ...REPORT_LIMITS, maxUnpackedTotalBytes: 3 * 1024 * 1024 };
    const padded = gzipSync(Buffer.concat([Buffer.from(reportFixture('google.xml')), Buffer.alloc(1024 * 1024 - 4096, 0x20)]));
    const message = reportMessage({
      attachments: [1, 2, 3, 4].map((n) => ({ filename: `r${n}.xml.gz`, contentType: 'application/gzip', data: padded })),
    });
    const outcomes = reports(await readReports('four.eml', message, { allowMessage: true, limits }));
    expect(outcomes.map((o) => ('refused' in o ? o.refused : o.kind))).toEqual(['dmarc', 'dmarc', 'dmarc', 'decompression_bomb']);
    expect(outcomes[3]).toMatchObject({ detail: expect.stringMatching(/everything in one upload or message/) });
  });

  it('a zip whose entry declares 1 GB is refused before inflating', async () => {
    const bomb = zip([{ name: 'bomb.xml', data: '<feedback/>', declaredSize: 1024 * 1024 * 1024 }]);
    expect(await refusal('bomb.zip', bomb)).toMatchObject({ code: 'decompression_bomb' });
  });

  it('a zip that lies (declares 100 bytes, inflates to 5 MB) is stopped', async () => {
    const liar = zip([{ name: 'liar.xml', data: Buffer.alloc(5 * 1024 * 1024, 0x20), declaredSize: 100 }]);
    expect(await refusal('liar.zip', liar)).toMatchObject({ code: 'bad_archive' });
  });

  it('an external entity (XXE) is refused unread', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feedback><report_metadata><org_name>&xxe;</org_name></report_metadata></feedback>`;
    expect(await refusal('xxe.xml', Buffer.from(xxe))).toMatchObject({ code: 'dtd_refused' });
  });

  it('a billion-laughs DTD is refused unread', async () => {
    const lol = `<?xml version="1.0"?><!doctype lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><feedback>&lol2;</feedback>`;
    expect(await refusal('lol.xml.gz', gzip(lol))).toMatchObject({ code: 'dtd_refused' });
  });

  it('invalid XML names the line', async () => {
    const broken = reportFixture('google.xml').replace('</org_name>', '</org>');
    expect(await refusal('broken.xml', Buffer.from(broken))).toMatchObject({ code: 'invalid_xml', detail: expect.stringMatching(/line \d+/) });
  });

  it('invalid UTF-8 is refused', async () => {
    const bad = Buffer.concat([
      Buffer.from('<?xml version="1.0"?><feedback><report_metadata><org_name>'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('</org_name></report_metadata></feedback>'),
    ]);
    expect(await refusal('bad.xml', bad)).toMatchObject({ code: 'invalid_utf8' });
  });

  it('ISO-8859-1 declared in the XML is read as such', async () => {
    const latin = Buffer.from(
      reportFixture('yahoo.xml')
        .replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
        .replace('<org_name>Yahoo</org_name>', '<org_name>Yahoo Ã©</org_name>'),
      'latin1',
    );
    expect((await one('latin.xml', latin)).orgName).toBe('Yahoo Ã©');
  });

  it('an oversize file is refused on its size', async () => {
    expect(await refusal('big.xml', Buffer.alloc(REPORT_LIMITS.maxInputBytes + 1, 0x3c))).toMatchObject({ code: 'too_large' });
  });

  it('too many records are refused', async () => {
    const xml = reportFixture('google.xml');
    expect(await refusal('many.xml', Buffer.from(xml), { ...REPORT_LIMITS, maxRecords: 1 })).toMatchObject({ code: 'too_many_records' });
  });

  it('a report without its id, a JSON that is not TLS-RPT, an unknown format, an empty file', async () => {
    const noId = reportFixture('google.xml').replace(/<report_id>[^<]*<\/report_id>/, '<report_id></report_id>');
    const outcomes = await Promise.all([
      readReports('noid.xml', Buffer.from(noId), { allowMessage: false }),
      readReports('x.json', Buffer.from('{"hello": 1}'), { allowMessage: false }),
      readReports('x.pdf', Buffer.from('%PDF-1.4 ...'), { allowMessage: false }),
      readReports('x.xml', Buffer.alloc(0), { allowMessage: false }),
      readReports('deep.json', Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`.replace(/^\[/, '{"a":[').replace(/\]$/, ']}')), {
        allowMessage: false,
      }),
    ]);
    expect(outcomes.flatMap(reports).map((r) => ('refused' in r ? r.refused : r.kind))).toEqual([
      'not_a_report',
      'not_a_report',
      'unknown_format',
      'empty',
      expect.stringMatching(/^(invalid_json|not_a_report)$/),
    ]);
  });
});
