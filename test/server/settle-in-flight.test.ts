import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveHttp, settleInFlight } from '../../server/serve-http.js';

describe('settleInFlight', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for a handler whose caller hung up, which server.close() does not', async () => {
    let finished = false;
    let started!: () => void;
    const reached = new Promise<void>((resolve) => (started = resolve));
    // The handler ends when the test says so, not after a fixed time.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = serveHttp(
      async () => {
        started();
        await released;
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
    let settled = false;
    const settling = settleInFlight(server, 60_000).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false); // still waiting for the handler
    release();
    await settling;
    expect(finished).toBe(true);
  });

  it('gives up after its cap', async () => {
    let started!: () => void;
    const reached = new Promise<void>((resolve) => (started = resolve));
    const server = serveHttp(
      () => {
        started();
        return new Promise<Response>(() => {});
      },
      { maxBodyBytes: 1024, name: 'test' },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const req = request({ host: '127.0.0.1', port, path: '/' });
    req.on('error', () => {});
    req.end();
    await reached;
    req.destroy();
    // The cap on fake timers: not given up 1 ms before it, given up at it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const settling = settleInFlight(server, 200).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await settling;
    expect(settled).toBe(true);
    vi.useRealTimers();
    server.close();
  });
});
