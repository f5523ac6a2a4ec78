import { createServer, type Server } from 'node:http';
import { metricsText, registry } from '../observability/metrics.js';

/** GET /metrics on its own listener; anything else is a 404 with a sentence. */
export async function serveMetrics(port: number, host: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not_found', detail: 'This listener serves GET /metrics only.' }));
      return;
    }
    metricsText().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () =>
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code: 'metrics_unavailable', detail: 'The metrics could not be read; retry the scrape.' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
