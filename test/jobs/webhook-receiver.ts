import { createServer, type Server } from 'node:http';

export interface ReceivedDelivery {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly status: number;
}

/**
 * A local endpoint answering what `answer` says for each body (default 200), recording every POST
 * once it is answered. `answer` may return a promise: the POST is held open until it settles (a test
 * uses that to keep an attempt in flight while something else happens).
 */
export async function startWebhookReceiver(
  answer: (body: string, earlier: readonly ReceivedDelivery[]) => number | Promise<number> = () => 200,
): Promise<{ url: string; received: ReceivedDelivery[]; close(): Promise<void> }> {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      void Promise.resolve(answer(body, received)).then((status) => {
        received.push({ headers: req.headers, body, status });
        res.writeHead(status).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The shared helper (test/support/wait-for.ts), re-exported for the job tests that import it from here. */
export { waitFor } from '../support/wait-for.js';
