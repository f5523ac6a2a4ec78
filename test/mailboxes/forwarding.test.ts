import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The forwarding listener (FORWARD_PORT) over a real socket: a Host that is an ordered domain with a
 * forward_to is a 301 to it (path and query kept), any other Host a 404 with a sentence.
 */
let service: TestService;
let forwarded: string;
let unforwarded: string;

function ask(host: string, path = '/'): Promise<{ status: number; location: string | undefined; body: string }> {
  const url = new URL(service.forwardUrl!);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  service = await startTestService({ env: { FORWARD_PORT: '0' } });
  const rows = await service.services.db.selectFrom('domains').select(['domain', 'forward_to']).where('account_id', '=', service.demo.accountId).execute();
  const withForward = rows.find((r) => r.forward_to !== null)!;
  forwarded = withForward.domain;
  unforwarded = rows.find((r) => r.forward_to === null)!.domain;
});
afterAll(async () => {
  await service?.close();
});

describe('forwarding listener', () => {
  it('answers 301 to the domain’s forward_to for an ordered domain, keeping the path and query, whatever the Host’s case or port', async () => {
    const target = (await service.services.db.selectFrom('domains').select('forward_to').where('domain', '=', forwarded).executeTakeFirstOrThrow()).forward_to;
    const root = await ask(forwarded);
    expect(root.status).toBe(301);
    expect(root.location).toBe(`https://${target}/`);
    const deep = await ask(`${forwarded.toUpperCase()}.:80`, '/pricing?ref=mail');
    expect(deep.status).toBe(301);
    expect(deep.location).toBe(`https://${target}/pricing?ref=mail`);
  });

  it('answers 404 with a sentence for a domain on no order, an ordered domain without forward_to, and a Host that is no name', async () => {
    const unknown = await ask('not-ordered.example');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({
      code: 'not_found',
      detail: 'not-ordered.example is not a domain on any order here, so there is nothing to forward it to.',
    });
    const bare = await ask(unforwarded);
    expect(bare.status).toBe(404);
    expect(JSON.parse(bare.body).detail).toMatch(/no forward_to set/);
    const junk = await ask('no_such host!');
    expect(junk.status).toBe(404);
    expect(JSON.parse(junk.body).detail).toMatch(/Host header naming a domain/);
  });
});
