import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEGMENT_ESP_LIMIT } from '../../resolvers/checks/bulk-input.js';
import type { CheckContext } from '../../resolvers/checks/check-context.js';
import { segmentEsp } from '../../resolvers/checks/segment-esp/segment-esp.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.js';
import { dnsOnlyCheckContext } from '../support/dns-check-context.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';

const mx = (name: string, exchange: string, preference = 10): ZoneRecord => ({ name, type: 'MX', data: { preference, exchange } });
const spf = (name: string, record: string): ZoneRecord => ({ name, type: 'TXT', data: [record] });

const records: ZoneRecord[] = [
  mx('g.example', 'aspmx.l.google.com', 1),
  mx('g.example', 'alt1.aspmx.l.google.com', 5),
  mx('g2.example', 'smtp.google.com', 1),
  mx('ms.example', 'ms-example.mail.protection.outlook.com', 0),
  mx('ms2.example', 'ms2-example.p-v1.mx.microsoft', 0),
  mx('pp.example', 'mx0a-001.pphosted.com'),
  spf('pp.example', 'v=spf1 include:spf.protection.outlook.com include:_spf.pphosted.com -all'),
  mx('mc.example', 'us-smtp-inbound-1.mimecast.com'),
  spf('mc.example', 'v=spf1 include:_spf.google.com ~all'),
  mx('bc.example', 'd123.a.ess.barracudanetworks.com'),
  mx('cisco.example', 'mx1.hc1234-1.iphmx.com'),
  mx('ml.example', 'cluster1.eu.messagelabs.com'),
  mx('pe.example', 'mx1-us1.ppe-hosted.com'),
  // Look-alikes that only contain a provider's name: matched by suffix, so these are "other".
  mx('fake.example', 'google.com.evil.example'),
  mx('fake2.example', 'mx.notpphosted.com'),
  mx('own.example', 'mail.own.example'),
  // Google as backup only: the most preferred host decides.
  mx('backup.example', 'mail.backup.example', 10),
  mx('backup.example', 'aspmx.l.google.com', 50),
  mx('null.example', '.', 0),
  { name: 'implicit.example', type: 'A', data: '192.0.2.5' },
];

let server: TestDnsServer;
beforeAll(async () => {
  server = await startTestDnsServer({ records, behaviours: { 'slow.example': 'timeout' } });
});
afterAll(() => server.close());

const ctx = (): CheckContext => dnsOnlyCheckContext(server);

describe('segment-esp', () => {
  it('splits domains into google, microsoft, named security gateways, other and unresolved', async () => {
    const domains =
      'g.example,g2.example,ms.example,ms2.example,pp.example,mc.example,bc.example,cisco.example,ml.example,pe.example,' +
      'fake.example,fake2.example,own.example,backup.example,null.example,implicit.example,absent.example,slow.example';
    const answer = await segmentEsp({ domains }, ctx());
    expect(answer.segments).toEqual({
      google: ['g.example', 'g2.example'],
      microsoft: ['ms.example', 'ms2.example'],
      securityGateway: ['pp.example', 'mc.example', 'bc.example', 'cisco.example', 'ml.example', 'pe.example'],
      other: ['fake.example', 'fake2.example', 'own.example', 'backup.example', 'implicit.example'],
      unresolved: ['null.example', 'absent.example', 'slow.example'],
    });
    expect(answer.counts).toEqual({ google: 2, microsoft: 2, securityGateway: 6, other: 5, unresolved: 3 });
    const by = (d: string) => answer.results.find((r) => r.domain === d);
    expect(by('pp.example')).toMatchObject({ gateway: 'proofpoint', provider: 'Proofpoint', providerBehindGateway: 'microsoft' });
    expect(by('mc.example')).toMatchObject({ gateway: 'mimecast', providerBehindGateway: 'google' });
    expect(by('bc.example')).toMatchObject({ gateway: 'barracuda', providerBehindGateway: null });
    expect(by('cisco.example')?.provider).toMatch(/Cisco/);
    expect(by('ml.example')?.provider).toMatch(/Symantec/);
    expect(by('null.example')?.reason).toMatch(/null MX/);
    expect(by('slow.example')?.reason).toMatch(/lookup failed.*not a missing record/);
    expect(answer.status).toBe('warn');
  });

  it('asks SPF only for domains behind a gateway', async () => {
    const before = server.questions.length;
    await segmentEsp({ domains: ['g.example', 'bc.example'] }, ctx());
    const asked = server.questions.slice(before);
    expect(asked.filter((q) => q.type === 'TXT').map((q) => q.name)).toEqual(['bc.example']);
  });

  it('over the limit is a 400 naming it', async () => {
    const domains = Array.from({ length: SEGMENT_ESP_LIMIT + 1 }, (_, i) => `d${i}.example`);
    expect(restAnswerOf(await segmentEsp({ domains }, ctx()).catch((e: unknown) => e))).toMatchObject({
      status: 400,
      detail: expect.stringContaining(`limit is ${SEGMENT_ESP_LIMIT}`),
    });
  });
});
