// Serves the test fixture zone (good.test, bad.test) on a free local port for trying the checks by hand:
//   npx tsx scripts/dev-dns.ts   (prints the address)   then   DNS_SERVERS=<address> npm start
import { startTestDnsServer } from '../test/support/dns-server.js';
import { fixtureZone } from '../test/support/fixture-zone.js';

const server = await startTestDnsServer({ records: fixtureZone });
process.stdout.write(`fixture DNS on ${server.server}\n`);
