import { serviceConfigFromEnv } from '../config/settings.js';
import { startService } from '../server/start-service.js';
import { seedDemo } from '../admin/seed-demo.js';
import { startTestDnsServer } from '../test/support/dns-server.js';
import { freePort, pebbleInstalled, PEBBLE_PATH, startPebble } from '../test/support/pebble-server.js';
import { waitFor } from '../test/support/wait-for.js';
import { insertDomains } from '../db/domains.js';

/**
 * Certificates for 100 forwarded domains through the running service against a local ACME server
 * (Debian's pebble, HTTP-01 on the forwarding listener, names resolved by a local DNS server): the
 * wall time from the domains going live until every one has its certificate stored (the sweep
 * queues them, JOBS_CONCURRENCY jobs order them), then the same for renewing all of them once each
 * is a day from its end. Pebble validates at once (PEBBLE_VA_NOSLEEP), so this is the service's own
 * cost plus pebble's signing, not a public authority's latency.
 */
export interface AcmeFigures {
  readonly domains: number;
  readonly concurrency: number;
  readonly issue_ms: number;
  readonly issue_ms_per_domain: number;
  readonly renew_ms: number;
  readonly renew_ms_per_domain: number;
}

const DOMAINS = 100;
const CONCURRENCY = 4;
const ZONE = 'acme-bench.test';

export async function benchAcme(): Promise<AcmeFigures> {
  if (!pebbleInstalled()) throw new Error(`pebble is not installed at ${PEBBLE_PATH}: apt-get install pebble.`);
  const dns = await startTestDnsServer({ records: [{ name: `*.${ZONE}`, type: 'A', data: '127.0.0.1' }] });
  const forwardPort = await freePort();
  const pebble = await startPebble({ httpPort: forwardPort, dnsServer: dns.server });
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    FORWARD_PORT: String(forwardPort),
    FORWARD_TLS_PORT: '0',
    ACME_DIRECTORY_URL: pebble.directoryUrl,
    ACME_CA_FILE: pebble.caFile,
    DNS_SERVERS: dns.server,
    JOBS: 'on',
    JOBS_CONCURRENCY: String(CONCURRENCY),
    JOBS_SWEEP_INTERVAL_MS: '200',
  };
  // An embedded database in memory (or DATABASE_URL's), as `npm start` would open it.
  const service = await startService({ ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, dataDir: 'memory' }, { env });
  try {
    const demo = await seedDemo(service.services.db, 'test', new Date());
    const db = service.services.db;
    // Only the bench's domains forward: the demo's are not in the local DNS.
    await db.updateTable('domains').set({ forward_to: null }).execute();
    const order = await db.selectFrom('domains').select(['account_id', 'order_id']).where('account_id', '=', demo.accountId).executeTakeFirstOrThrow();
    const names = Array.from({ length: DOMAINS }, (_, i) => `d${i}.${ZONE}`);
    const issuedCount = async (after: Date) => {
      const row = await db
        .selectFrom('forwarding_certificates')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('domain', 'like', `%.${ZONE}`)
        .where('issued_at', '>', after)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const issueStart = new Date();
    await insertDomains(
      db,
      names.map((domain) => ({ account_id: order.account_id, order_id: order.order_id, domain, build_state: 'live', forward_to: 'example.org' })),
    );
    await waitFor(`certificates for ${DOMAINS} domains`, async () => (await issuedCount(issueStart)) === DOMAINS, 600_000, 100);
    const issueMs = Date.now() - issueStart.getTime();

    const renewStart = new Date();
    await db
      .updateTable('forwarding_certificates')
      .set({ not_after: new Date(Date.now() + 86_400_000), retry_at: null })
      .where('domain', 'like', `%.${ZONE}`)
      .execute();
    await waitFor(`renewed certificates for ${DOMAINS} domains`, async () => (await issuedCount(renewStart)) === DOMAINS, 600_000, 100);
    const renewMs = Date.now() - renewStart.getTime();
    return {
      domains: DOMAINS,
      concurrency: CONCURRENCY,
      issue_ms: issueMs,
      issue_ms_per_domain: Math.round(issueMs / DOMAINS),
      renew_ms: renewMs,
      renew_ms_per_domain: Math.round(renewMs / DOMAINS),
    };
  } finally {
    await service.stop();
    await pebble.close();
    await dns.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchAcme(), null, 1));
  process.exit(0);
}
