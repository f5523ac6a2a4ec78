import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serveHttp, settleInFlight } from '../../server/serve-http.js';

describe('settleInFlight', () => {
  it('waits for a handler whose caller hung up, which server.close() does not', async () => {
    let finished = false;
    let started!: () => void;
    const reached = new Promise<void>((resolve) => (started = resolve));
    const server = serveHttp(
      async () => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 400));
        finished = true;
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
      { maxBodyBytes: 1024, name: 'test' },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const hungUp = new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/' });
      req.on('error', () => resolve());
      req.end();
      void reached.then(() => req.destroy());
    });
    await hungUp;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(finished).toBe(false); // close() is done: no connection is left, the handler still runs
    await settleInFlight(server, 5000);
    expect(finished).toBe(true);
  });

  it('gives up after its cap', async () => {
    const server = serveHttp(() => new Promise<Response>(() => {}), { maxBodyBytes: 1024, name: 'test' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const req = request({ host: '127.0.0.1', port, path: '/' });
    req.on('error', () => {});
    req.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
    const before = performance.now();
    await settleInFlight(server, 200);
    expect(performance.now() - before).toBeGreaterThanOrEqual(190);
    server.close();
  });
});
