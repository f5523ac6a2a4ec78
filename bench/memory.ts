import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase } from '../db/open-database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDemo } from '../admin/seed-demo.js';
import { spawnServer } from '../test/support/spawn-server.js';
import { createTestDatabase } from '../test/support/test-database.js';
import { provideOutsideVitest } from './outside-vitest.js';

/**
 * Resident memory of one real server process: after start, after a warm-up, and after 100,000
 * requests (autocannon, a mix of REST, /graphql and the REST door's 404), read from /proc (Linux).
 * A leak per request would show as growth between the warm-up and the end; the bound is 50 MB.
 */
export const MEMORY_GROWTH_BOUND_MB = 50;

export interface MemoryBenchFigures {
  readonly database: 'pglite' | 'postgres';
  readonly requests: number;
  readonly seconds: number;
  readonly requests_per_second: number;
  readonly non_2xx: number;
  readonly errors: number;
  readonly rss_start_mb: number;
  readonly rss_warm_mb: number;
  readonly rss_end_mb: number;
  readonly rss_peak_mb: number;
  /** rss_end - rss_warm (target < MEMORY_GROWTH_BOUND_MB). */
  readonly growth_mb: number;
}

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));

export async function benchMemory(options: { readonly requests?: number; readonly connections?: number } = {}): Promise<MemoryBenchFigures> {
  const amount = options.requests ?? 100_000;
  const connections = options.connections ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const postgres = process.env.DATABASE_URL ? await createTestDatabase() : null;
  try {
    const database = await openDatabase(postgres ? { databaseUrl: postgres.databaseUrl } : { dataDir: join(dir, 'data') });
    let key: string;
    try {
      await migrateToLatest(database.db);
      key = (await seedDemo(database.db, 'test')).key;
    } finally {
      await database.close();
    }
    const server = await spawnServer({
      env: { ...(postgres ? { DATABASE_URL: postgres.databaseUrl } : { DATA_DIR: join(dir, 'data') }), RATE_LIMIT_READ_PER_MINUTE: '100000000' },
    });
    try {
      const headers = { authorization: `Bearer ${key}` };
      const requests: autocannon.Request[] = [
        { method: 'GET', path: '/v1/portal/dashboard', headers },
        {
          method: 'POST',
          path: '/graphql',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ paymentMethod { onFile } }' }),
        },
        { method: 'GET', path: '/v1/payment-method', headers },
        { method: 'GET', path: '/v1/portal/billing', headers },
      ];
      await settle();
      const start = rssMb(server.pid);
      await autocannon({ url: server.apiUrl, requests, connections, amount: 2000 });
      await settle();
      const warm = rssMb(server.pid);
      let peak = warm;
      const sampler = setInterval(() => {
        try {
          peak = Math.max(peak, rssMb(server.pid));
        } catch {
          /* exited */
        }
      }, 500);
      const started = performance.now();
      const result = await autocannon({ url: server.apiUrl, requests, connections, amount });
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      await settle();
      const end = rssMb(server.pid);
      return {
        database: postgres ? 'postgres' : 'pglite',
        requests: result.requests.total,
        seconds: Math.round(seconds),
        requests_per_second: Math.round(result.requests.total / seconds),
        non_2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        rss_start_mb: start,
        rss_warm_mb: warm,
        rss_end_mb: end,
        rss_peak_mb: Math.max(peak, rssMb(server.pid, 'VmHWM')),
        growth_mb: Math.round((end - warm) * 10) / 10,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

export function printMemoryFigures(f: MemoryBenchFigures): void {
  console.log(
    `Memory bench: one server process (${f.database}), ${f.requests} requests in ${f.seconds} s (${f.requests_per_second} req/s), non-2xx ${f.non_2xx}, errors ${f.errors}`,
  );
  console.log(
    `  RSS: ${f.rss_start_mb} MB after start, ${f.rss_warm_mb} MB after 2,000 warm-up requests, ${f.rss_end_mb} MB after the run (peak ${f.rss_peak_mb} MB)`,
  );
  console.log(`  growth after warm-up: ${f.growth_mb} MB (bound < ${MEMORY_GROWTH_BOUND_MB} MB)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const requests = Number(process.argv[2] ?? 100_000);
  // Outside vitest: the transpiled copy and the migrated templates the test helpers read (bench/outside-vitest.ts).
  const teardown = await provideOutsideVitest();
  try {
    printMemoryFigures(await benchMemory({ requests }));
  } finally {
    await teardown();
  }
}
