import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createContext } from '../../resolvers/context.js';
import { publishRecords } from '../../resolvers/domains/publishing/publish-records.js';
import { DomainError } from '../../resolvers/domain-error.js';
import { restAnswerOf } from '../../rest/rest-error-words.js';
import type { DnsRecord } from '../../clients/dns-publishing/dns-publisher.js';
import { startFakeCloudflare, type FakeCloudflare } from '../support/fake-cloudflare.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Publishing through Cloudflare's official SDK against a local fake of the endpoints it calls
 * (CLOUDFLARE_API_BASE): the zone found by name, records listed, one batch per apply, none on the
 * second; a refused token is a 422 that changes nothing; the token never reaches an answer.
 */
let service: TestService;
let cloudflare: FakeCloudflare;
const ZONE = 'cf-publish.test';
const wanted: DnsRecord[] = [
  { type: 'MX', name: ZONE, value: 'smtp.google.com', ttl: 3600, priority: 1 },
  { type: 'TXT', name: ZONE, value: 'v=spf1 include:other.test include:_spf.google.com ~all', ttl: 3600 },
  { type: 'TXT', name: `_dmarc.${ZONE}`, value: 'v=DMARC1; p=quarantine; rua=mailto:dmarc@reports.example.net', ttl: 3600 },
  { type: 'TXT', name: `google._domainkey.${ZONE}`, value: `v=DKIM1; k=rsa; p=${'A'.repeat(392)}`, ttl: 3600 },
];

const contextOf = () =>
  createContext(service.services, { authorization: `Bearer ${service.demo.key}`, requestId: randomUUID(), clientAddress: '127.0.0.1', door: 'rest' });

async function connection(apiToken: string): Promise<number> {
  const response = await service.api('/v1/dns-connections', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'cloudflare', api_token: apiToken }),
  });
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer.connection_id;
}

const snapshot = () =>
  cloudflare
    .records(ZONE)
    .map((r) => `${r.name} ${r.type} ${r.priority ?? ''} ${r.content}`.replace('  ', ' '))
    .sort();

beforeAll(async () => {
  cloudflare = await startFakeCloudflare([ZONE, 'other-zone.test']);
  cloudflare.addRecord(ZONE, { name: ZONE, type: 'MX', content: 'mx.other.test', priority: 10 });
  cloudflare.addRecord(ZONE, { name: ZONE, type: 'TXT', content: 'v=spf1 include:other.test ~all' });
  cloudflare.addRecord(ZONE, { name: ZONE, type: 'TXT', content: 'keep=this' });
  cloudflare.addRecord(ZONE, { name: `_dmarc.${ZONE}`, type: 'TXT', content: 'v=DMARC1; p=quarantine' });
  service = await startTestService({ socketless: true, env: { CLOUDFLARE_API_BASE: cloudflare.url } });
});
afterAll(async () => {
  await service?.close();
  await cloudflare?.close();
});

describe('Cloudflare through its official SDK', () => {
  it('a refused token is a 422 saying which permission to grant, and nothing changes', async () => {
    const before = snapshot();
    const id = await connection('wrong_token_0123456789abcdef');
    const error = await publishRecords(contextOf(), id, wanted, false).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(restAnswerOf(error)).toMatchObject({ status: 422, code: 'cloudflare_token_refused', detail: expect.stringMatching(/Zone > DNS > Edit/) });
    expect(snapshot()).toEqual(before);
    expect(cloudflare.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a domain in no zone the token reaches is refused with what to do', async () => {
    const id = await connection(cloudflare.token);
    const error = await publishRecords(contextOf(), id, [{ ...wanted[0]!, name: 'elsewhere.test' }], true).then(
      () => null,
      (e: unknown) => e,
    );
    expect(restAnswerOf(error)).toMatchObject({
      status: 422,
      code: 'dns_zone_not_served',
      detail: expect.stringMatching(/add the zone to the Cloudflare account/),
    });
  });

  it('a dry run makes no change; applying twice is one batch, then nothing', async () => {
    const id = await connection(cloudflare.token);
    const before = snapshot();
    const dry = await publishRecords(contextOf(), id, wanted, true);
    expect(dry.changes.map((c) => [c.action, c.record.type, c.record.name])).toEqual([
      ['replace', 'MX', ZONE],
      ['replace', 'TXT', ZONE],
      ['replace', 'TXT', `_dmarc.${ZONE}`],
      ['add', 'TXT', `google._domainkey.${ZONE}`],
    ]);
    expect(snapshot()).toEqual(before);

    const sent = cloudflare.requests.length;
    const first = await publishRecords(contextOf(), id, wanted, false);
    expect(first.changes).toEqual(dry.changes);
    const writes = cloudflare.requests.slice(sent).filter((r) => r.method !== 'GET');
    expect(writes.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{32}/, 'ZONE')}`)).toEqual(['POST /client/v4/zones/ZONE/dns_records/batch']);
    expect(writes[0]!.authorization).toBe(`Bearer ${cloudflare.token}`);
    expect(snapshot()).toEqual(
      [
        `${ZONE} MX 1 smtp.google.com`,
        `${ZONE} TXT v=spf1 include:other.test include:_spf.google.com ~all`,
        `${ZONE} TXT keep=this`,
        `_dmarc.${ZONE} TXT v=DMARC1; p=quarantine; rua=mailto:dmarc@reports.example.net`,
        `google._domainkey.${ZONE} TXT v=DKIM1; k=rsa; p=${'A'.repeat(392)}`,
      ].sort(),
    );

    const after = cloudflare.requests.length;
    expect((await publishRecords(contextOf(), id, wanted, false)).changes).toEqual([]);
    expect(cloudflare.requests.slice(after).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('reads TXT content Cloudflare answers as quoted strings as one value', async () => {
    cloudflare.addRecord(ZONE, { name: `quoted.${ZONE}`, type: 'TXT', content: '"v=spf1 include:a.test " "-all"' });
    const id = await connection(cloudflare.token);
    const plan = await publishRecords(contextOf(), id, [{ type: 'TXT', name: `quoted.${ZONE}`, value: 'v=spf1 include:a.test -all', ttl: 300 }], true);
    expect(plan.changes).toEqual([]);
  });
});
