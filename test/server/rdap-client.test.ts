import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRdapJson } from '../../clients/registry/rdap-client.js';
import { lookupRdap } from '../../clients/registry/rdap-lookup.js';
import { rdapDomain } from '../support/rdap-server.js';

/** The service's RDAP GET (node:http, kept connections): what fetch did, for the answers registries give. */
let server: Server;
let base = '';
const accepts: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    accepts.push(String(req.headers.accept));
    const path = req.url ?? '/';
    if (path === '/rdap/domain/good.example') {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify(rdapDomain('good.example', 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2027-03-01T12:00:00Z')));
    } else if (path === '/moved/domain/good.example') {
      res.writeHead(301, { location: '/rdap/domain/good.example' });
      res.end();
    } else if (path.startsWith('/loop/')) {
      res.writeHead(302, { location: path });
      res.end();
    } else if (path === '/slow/domain/good.example') {
      setTimeout(() => res.end('{}'), 2000);
    } else if (path === '/huge/domain/good.example') {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(`{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    } else {
      res.writeHead(404, { 'content-type': 'application/rdap+json' });
      res.end('{"errorCode":404}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the RDAP GET handed to the checks', () => {
  it('reads a 200 as JSON, asking for application/rdap+json', async () => {
    const answer = await getRdapJson(`${base}/rdap/domain/good.example`, 2000);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ objectClassName: 'domain', ldhName: 'GOOD.EXAMPLE' });
    expect(accepts.at(-1)).toBe('application/rdap+json, application/json');
  });

  it('follows a redirect, and gives up after five', async () => {
    expect(await lookupRdap('good.example', [`${base}/moved/`], 2000, getRdapJson)).toMatchObject({ kind: 'found', registrar: 'Example Registrar, Inc.' });
    expect(await lookupRdap('good.example', [`${base}/loop/`], 2000, getRdapJson)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/more than 5 redirects/),
    });
  });

  it('a 404 is "not registered"; a timeout and an oversized answer are failures that say so', async () => {
    expect(await lookupRdap('free.example', [`${base}/rdap/`], 2000, getRdapJson)).toMatchObject({ kind: 'not_found' });
    expect(await lookupRdap('good.example', [`${base}/slow/`], 300, getRdapJson)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/did not answer within 300 ms/),
    });
    expect(await lookupRdap('good.example', [`${base}/huge/`], 2000, getRdapJson)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/larger than 1048576 bytes/),
    });
  });

  it('a refused connection is a failure naming the server', async () => {
    expect(await lookupRdap('good.example', ['http://127.0.0.1:9/rdap/'], 1000, getRdapJson)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/RDAP server 127\.0\.0\.1:9 could not be read/),
    });
  });
});
