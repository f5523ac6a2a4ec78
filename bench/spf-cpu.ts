import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { DnsAnswer, DnsLookup, DnsRecordType } from '../clients/dns/dns-types.js';
import { checkHost } from '../resolvers/checks/spf/check-host.js';
import { parseSpfIp } from '../resolvers/checks/spf/spf-ip.js';
import type { ZoneRecord } from '../test/support/dns-server.js';

/**
 * CPU per SPF evaluation, ours (check_host() with its look-ahead) against mailauth's spf(), both
 * reading the same zone from memory so that only evaluation work is measured: no sockets, no
 * packet parsing, answers ready at once. Evaluations run 10 at a time, as a busy receiver or a
 * bulk check would, and the CPU time (user + system, process.cpuUsage) is divided by their number.
 */
export interface SpfCpuFigures {
  readonly evaluations: number;
  readonly concurrency: number;
  /** Microseconds of CPU per evaluation. */
  readonly oursUs: number;
  readonly mailauthUs: number;
  /** oursUs ÷ mailauthUs (target: at most 1.0). */
  readonly ratio: number;
  /** The results each side gave, so a bench that compares different work is noticed. */
  readonly results: { readonly ours: readonly string[]; readonly mailauth: readonly string[] };
}

const DOMAIN = 'cpu.example';
const INCLUDES = Array.from({ length: 8 }, (_, i) => `spf${i + 1}.provider.example`);
const CONCURRENCY = 10;

function zone(): ZoneRecord[] {
  return [
    { name: DOMAIN, type: 'TXT', data: [`v=spf1 ip4:192.0.2.0/26 ${INCLUDES.map((d) => `include:${d}`).join(' ')} a mx -all`] },
    { name: DOMAIN, type: 'TXT', data: ['google-site-verification=abcdefghijklmnopqrstuvwxyz'] },
    { name: DOMAIN, type: 'A', data: '192.0.2.200' },
    { name: DOMAIN, type: 'MX', data: { preference: 10, exchange: `mx1.${DOMAIN}` } },
    { name: DOMAIN, type: 'MX', data: { preference: 20, exchange: `mx2.${DOMAIN}` } },
    { name: `mx1.${DOMAIN}`, type: 'A', data: '192.0.2.211' },
    { name: `mx2.${DOMAIN}`, type: 'A', data: '192.0.2.212' },
    ...INCLUDES.map(
      (d, i): ZoneRecord => ({
        name: d,
        type: 'TXT',
        data: [`v=spf1 ip4:198.51.100.${i * 16}/28 ip4:203.0.${i}.0/24 ip6:2001:db8:${i}::/48 ip6:2001:db8:${i + 100}::/48 ~all`],
      }),
    ),
  ];
}

/** The clients: one listed in the 5th include, one at the MX, and two listed nowhere (the full path). */
const CLIENTS = ['198.51.100.70', '192.0.2.212', '203.0.113.77', '2001:db8:ffff::1'];

type Zone = ReadonlyMap<string, ReadonlyMap<string, readonly ZoneRecord[]>>;

function index(records: readonly ZoneRecord[]): Zone {
  const byName = new Map<string, Map<string, ZoneRecord[]>>();
  for (const r of records) {
    const name = r.name.toLowerCase();
    const types = byName.get(name) ?? new Map<string, ZoneRecord[]>();
    types.set(r.type, [...(types.get(r.type) ?? []), r]);
    byName.set(name, types);
  }
  return byName;
}

/** Our DnsLookup over the zone; answers are built once, as the per-request cache would hand them out. */
function memoryLookup(z: Zone): DnsLookup {
  const answers = new Map<string, Promise<DnsAnswer>>();
  for (const [name, types] of z) {
    for (const type of ['A', 'AAAA', 'MX', 'TXT', 'PTR'] as const) {
      const records = types.get(type);
      answers.set(
        `${name}|${type}`,
        Promise.resolve(
          records
            ? ({ ok: true, name, type, records: records.map((r) => ({ data: r.data, ttl: 300 })) } as DnsAnswer)
            : { ok: false, name, type, failure: 'nodata', detail: `${name} has no ${type} records` },
        ),
      );
    }
  }
  return {
    lookup<T extends DnsRecordType>(name: string, type: T): Promise<DnsAnswer<T>> {
      const key = `${name.toLowerCase()}|${type}`;
      const found = answers.get(key);
      if (found) return found as Promise<DnsAnswer<T>>;
      return Promise.resolve({ ok: false, name, type, failure: 'nxdomain', detail: `${name} does not exist` } as DnsAnswer<T>);
    },
    questionsAsked: 0,
  };
}

/** mailauth's resolver contract: dns.promises.resolve, errors with code ENOTFOUND / ENODATA. Answers built once, like ours. */
function memoryResolver(z: Zone): (name: string, type: string) => Promise<unknown[]> {
  const answers = new Map<string, unknown[]>();
  for (const [name, types] of z) {
    for (const [type, records] of types) {
      answers.set(
        `${name}|${type}`,
        records.map((r) => (r.type === 'MX' ? { exchange: r.data.exchange, priority: r.data.preference } : r.data)),
      );
    }
  }
  return (name, type) => {
    const lower = name.toLowerCase();
    const found = answers.get(`${lower}|${type}`);
    // mailauth's own cache copies what it is given, so handing out the same array is safe.
    if (found) return Promise.resolve(found);
    return Promise.reject(Object.assign(new Error(`${type} ${name}`), { code: z.has(lower) ? 'ENODATA' : 'ENOTFOUND' }));
  };
}

interface MailauthSpf {
  spf(opts: {
    sender: string;
    ip: string;
    helo: string;
    mta: string;
    resolver: (name: string, type: string) => Promise<unknown[]>;
  }): Promise<{ status: { result: string } }>;
}

async function cpuPer(evaluations: number, one: (i: number) => Promise<string>): Promise<{ us: number; results: string[] }> {
  const results = new Set<string>();
  const started = process.cpuUsage();
  for (let done = 0; done < evaluations; done += CONCURRENCY) {
    const batch = await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => one(done + k)));
    for (const r of batch) results.add(r);
  }
  const used = process.cpuUsage(started);
  return { us: (used.user + used.system) / evaluations, results: [...results].sort() };
}

export async function benchSpfCpu(evaluations = 4000): Promise<SpfCpuFigures> {
  const require = createRequire(import.meta.url);
  const mailauth = require('mailauth/lib/spf') as MailauthSpf;
  const z = index(zone());
  const lookup = memoryLookup(z);
  const resolver = memoryResolver(z);
  const ips = CLIENTS.map((c) => {
    const ip = parseSpfIp(c);
    if (!ip) throw new Error(`bench client ${c} does not parse`);
    return ip;
  });
  const now = () => new Date();
  const ours = async (i: number): Promise<string> => {
    const ip = ips[i % ips.length]!;
    const r = await checkHost({ ip, domain: DOMAIN, sender: `bounce@${DOMAIN}`, helo: `mail.${DOMAIN}` }, { dns: lookup, now });
    return `${ip.text}:${r.result}`;
  };
  const theirs = async (i: number): Promise<string> => {
    const ip = CLIENTS[i % CLIENTS.length]!;
    const r = await mailauth.spf({ sender: `bounce@${DOMAIN}`, ip, helo: `mail.${DOMAIN}`, mta: 'mx.receiver.example', resolver });
    return `${ip}:${r.status.result}`;
  };
  // Warm both up (JIT), then alternate rounds so drift on a shared machine hits both alike.
  await cpuPer(800, ours);
  await cpuPer(800, theirs);
  const o: number[] = [];
  const t: number[] = [];
  let results = { ours: [] as string[], mailauth: [] as string[] };
  for (let round = 0; round < 4; round += 1) {
    const a = await cpuPer(evaluations / 4, ours);
    const b = await cpuPer(evaluations / 4, theirs);
    o.push(a.us);
    t.push(b.us);
    results = { ours: a.results, mailauth: b.results };
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const oursUs = median(o);
  const mailauthUs = median(t);
  return {
    evaluations,
    concurrency: CONCURRENCY,
    oursUs: Math.round(oursUs),
    mailauthUs: Math.round(mailauthUs),
    ratio: Math.round((oursUs / mailauthUs) * 100) / 100,
    results,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await benchSpfCpu(Number(process.argv[2] ?? 4000));
  console.log(`SPF evaluation CPU, ${f.evaluations} evaluations, ${f.concurrency} at a time, zone in memory`);
  console.log(`  ours      ${f.oursUs} µs per evaluation`);
  console.log(`  mailauth  ${f.mailauthUs} µs per evaluation`);
  console.log(`  ratio     ${f.ratio} (target <= 1.0)`);
  console.log(`  results   ours ${f.results.ours.join(', ')}`);
  console.log(`            mailauth ${f.results.mailauth.join(', ')}`);
}
