import { serviceConfigFromEnv } from '../config/settings.js';
import { startService } from '../server/start-service.js';
import { seedDemo } from '../admin/seed-demo.js';
import { startBindServer } from '../test/support/bind-server.js';
import { freePort, pebbleInstalled, PEBBLE_PATH, startPebble } from '../test/support/pebble-server.js';
import { waitFor } from '../test/support/wait-for.js';
import { insertDomains } from '../db/domains.js';
import { insertVerifiedDomains } from '../db/verified-domains.js';
import { insertSetupApply } from '../db/setup-applies.js';

/**
 * Certificates over DNS-01 through the domain's DNS connection (ACME_DNS01=on) for DOMAINS forwarded
 * domains, through the running service: a real BIND serving one zone (a wildcard A for the names)
 * and taking the RFC 2136 connection's TSIG-signed updates, pebble validating DNS-01 there and its
 * HTTP-01 port pointing nowhere. Each domain's journal holds an apply through the connection (as if
 * its setup had been applied), so the job picks DNS-01: publish `_acme-challenge` TXT through the
 * journaled apply, wait for the zone's name server, validate, revert. The wall time from the domains
 * going live until every one has its certificate, then the same for renewing them all.
 */
export interface AcmeDns01Figures {
  readonly domains: number;
  readonly concurrency: number;
  readonly issue_ms: number;
  readonly issue_ms_per_domain: number;
  readonly renew_ms: number;
  readonly renew_ms_per_domain: number;
  /** Domains with a failed attempt seen (each retried after 5 minutes, which then dominates issue_ms). */
  readonly failed_attempts: number;
}

const DOMAINS = 20;
const CONCURRENCY = 4;
const ZONE = 'acme-dns01-bench.test';

export async function benchAcmeDns01(): Promise<AcmeDns01Figures> {
  if (!pebbleInstalled()) throw new Error(`pebble is not installed at ${PEBBLE_PATH}: apt-get install pebble.`);
  const bind = await startBindServer({ resolver: true, zones: [{ name: ZONE, records: ['* IN A 127.0.0.1'] }] });
  const pebble = await startPebble({ httpPort: await freePort(), dnsServer: `127.0.0.1:${bind.port}` });
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    FORWARD_PORT: '0',
    FORWARD_TLS_PORT: '0',
    ACME_DIRECTORY_URL: pebble.directoryUrl,
    ACME_CA_FILE: pebble.caFile,
    ACME_DNS01: 'on',
    DNS_SERVERS: `127.0.0.1:${bind.port}`,
    DNS_AUTHORITATIVE_PORT: String(bind.port),
    DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES: '1',
    JOBS: 'on',
    JOBS_CONCURRENCY: String(CONCURRENCY),
    JOBS_SWEEP_INTERVAL_MS: '200',
  };
  const service = await startService({ ...serviceConfigFromEnv(env), publicPort: 0, apiPort: 0, dataDir: 'memory' }, { env });
  try {
    const demo = await seedDemo(service.services.db, 'test', new Date());
    const db = service.services.db;
    await db.updateTable('domains').set({ forward_to: null }).execute();
    const created = await fetch(`${service.apiUrl}/v1/dns-connections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'rfc2136',
        server: '127.0.0.1',
        port: bind.port,
        key_name: bind.key.name,
        algorithm: bind.key.algorithm,
        secret: bind.key.secret,
      }),
    });
    if (created.status !== 200) throw new Error(`the DNS connection was refused: ${await created.text()}`);
    const connectionId = ((await created.json()) as { connection_id: number }).connection_id;
    const order = await db.selectFrom('domains').select(['account_id', 'order_id']).where('account_id', '=', demo.accountId).executeTakeFirstOrThrow();
    const names = Array.from({ length: DOMAINS }, (_, i) => `d${i}.${ZONE}`);
    await insertVerifiedDomains(db, demo.accountId, names, new Date());
    for (const domain of names)
      await insertSetupApply(db, { account_id: demo.accountId, domain, connection_id: connectionId, kind: 'apply', reverts_apply_id: null, rrsets: '[]' });
    // Failed attempts seen while waiting (a success clears them from the row), printed with the figures.
    const failures = new Map<string, string>();
    const issuedCount = async (after: Date) => {
      for (const f of await db.selectFrom('forwarding_certificates').select(['domain', 'last_error']).where('last_error', 'is not', null).execute())
        if (!failures.has(f.domain)) {
          failures.set(f.domain, f.last_error!);
          process.stderr.write(`attempt failed: ${f.domain}: ${f.last_error}\n`);
        }
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
    await waitFor(`certificates for ${DOMAINS} domains over DNS-01`, async () => (await issuedCount(issueStart)) === DOMAINS, 600_000, 100);
    const issueMs = Date.now() - issueStart.getTime();
    const renewStart = new Date();
    await db
      .updateTable('forwarding_certificates')
      .set({ not_after: new Date(Date.now() + 86_400_000), retry_at: null })
      .where('domain', 'like', `%.${ZONE}`)
      .execute();
    await waitFor(`renewed certificates for ${DOMAINS} domains over DNS-01`, async () => (await issuedCount(renewStart)) === DOMAINS, 600_000, 100);
    const renewMs = Date.now() - renewStart.getTime();
    return {
      domains: DOMAINS,
      concurrency: CONCURRENCY,
      issue_ms: issueMs,
      issue_ms_per_domain: Math.round(issueMs / DOMAINS),
      renew_ms: renewMs,
      renew_ms_per_domain: Math.round(renewMs / DOMAINS),
      failed_attempts: failures.size,
    };
  } finally {
    await service.stop();
    await pebble.close();
    await bind.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchAcmeDns01(), null, 1));
  process.exit(0);
}
