// `npm run dev-dns`: a local DNS server answering the demo names, so a newcomer can try the checks
// and place orders with no internet. Start the service beside it with
//   DNS_SERVERS=127.0.0.1:5300 npm start
// It serves test/support/fixture-zone.ts: good.test (well configured), bad.test (poorly), the
// blocklists' test points, and the domains an order can name (orderableDemoDomains), each with the
// demo account's verification TXT at _inbox-verification.<domain> (docs/ordering.md). Any other name
// is NXDOMAIN. Port 5300 rather than 5353, which mDNS (Avahi, macOS) usually holds.
// Each orderable demo domain is a zone that takes RFC 2136 updates signed with the fixed, public
// development TSIG key printed at start (devDnsTsigKey), so a DNS connection of kind rfc2136 to this
// server can publish a demo domain's setup (POST /v1/domains/{domain}/setup/apply) and the domain goes
// live offline. Updates live in memory: a restart serves the demo zone as it was.
import { startTestDnsServer, type TestDnsServer } from '../test/support/dns-server.js';
import { demoDomainSoas, devDnsTsigKey, fixtureZone, googleAttachedDemoDomain, orderableDemoDomains, orderingDemoZone } from '../test/support/fixture-zone.js';

const DEFAULT_PORT = 5300;
const rawPort = process.env.DEV_DNS_PORT ?? String(DEFAULT_PORT);
const port = Number(rawPort);
if (!/^\d{1,5}$/.test(rawPort) || port > 65535) {
  process.stderr.write(`DEV_DNS_PORT must be a port number from 1 to 65535 (0: any free port); it is "${rawPort}".\n`);
  process.exit(1);
}

let server: TestDnsServer;
try {
  server = await startTestDnsServer({
    records: [...fixtureZone, ...orderingDemoZone, ...demoDomainSoas],
    port: port === 0 ? undefined : port,
    tsig: { name: devDnsTsigKey.name, algorithm: devDnsTsigKey.algorithm, secret: Buffer.from(devDnsTsigKey.secret, 'base64') },
  });
} catch (error) {
  process.stderr.write(
    `The demo DNS server could not listen on 127.0.0.1:${port} (UDP and TCP): ${error instanceof Error ? error.message : String(error)}\n` +
      `Another program holds the port; run it on another one with DEV_DNS_PORT=5301 npm run dev-dns.\n`,
  );
  process.exit(1);
}

process.stdout.write(
  [
    `Demo DNS on ${server.server} (UDP and TCP). Start the service beside it:`,
    `  DNS_SERVERS=${server.server} npm start`,
    'Checks answer for good.test (well configured) and bad.test (poorly configured).',
    `Orders can name ${orderableDemoDomains.join(', ')}; ${googleAttachedDemoDomain} is refused (it receives mail at Google).`,
    `RFC 2136 updates to the orderable domains are taken when signed with the development TSIG key (public, not a secret):`,
    `  key_name ${devDnsTsigKey.name}, algorithm ${devDnsTsigKey.algorithm}, secret ${devDnsTsigKey.secret}`,
    `  server ${server.address}, port ${server.port} (start the service with DNS_CONNECTIONS_ALLOW_PRIVATE_ADDRESSES=1 to reach it)`,
    'Any other name does not exist here. Ctrl-C stops it.',
    '',
  ].join('\n'),
);

// The server records every question for the tests; a long-running demo only needs the recent ones.
setInterval(() => {
  server.questions.length = 0;
}, 60_000).unref();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
