import { startPebble } from './test/support/pebble-server.ts';
import { startTestDnsServer } from './test/support/dns-server.ts';
const dns = await startTestDnsServer({ records: [{ name: 'a.test', type: 'A', data: '127.0.0.1' }] });
const p = await startPebble({ httpPort: 5002, dnsServer: dns.server });
console.log(p.directoryUrl);
const r = await fetch(p.directoryUrl).catch(e=>String(e));
console.log(p.output());
await p.close(); await dns.close();
