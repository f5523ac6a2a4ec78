import { readSettings } from '../config/settings.js';
import { generateKeyPairSync } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkDeliverability } from '../resolvers/checks/deliverability/check-deliverability.js';
import { createDnsLookup } from '../clients/dns/create-dns-lookup.js';
import { createUdpSocketPool } from '../clients/dns/udp-socket-pool.js';
import type { UdpSocketPool } from '../clients/dns/udp-socket-pool.js';
import { encodeQuery } from '../clients/dns/send-dns-query.js';
import { createSocket } from 'node:dgram';
import type { FullCheckContext } from '../resolvers/checks/full-check-context.js';
import { startTestDnsServer, type TestDnsServer, type ZoneRecord } from '../test/support/dns-server.js';
import { rdapDomain, startTestRdapServer } from '../test/support/rdap-server.js';

/**
 * bench/dns.ts — the DNS engine under check-deliverability against the local DNS server, with a
 * zone whose apex TXT set and 2048-bit DKIM key make answers over 512 octets but under 1232 (what
 * real sending domains look like). Figures:
 * (a) questions the server received ÷ distinct (name, type): 1.00 with EDNS(0), and no TCP retry;
 * (b) CPU per check-deliverability (process.cpuUsage over RUNS runs) with pooled UDP sockets, and
 *     with a fresh socket per question (the engine before socket reuse), in the same run.
 * For (b) the test server runs in a child process, so the CPU measured is the client's alone.
 */
const DOMAIN = 'edns.example';
const RUNS = 40;

function zone(): ZoneRecord[] {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const txt = (name: string, text: string): ZoneRecord => ({ name, type: 'TXT', data: [text] });
  return [
    // An apex TXT set as big providers' customers have: SPF beside site verifications (~700 octets).
    txt(DOMAIN, 'v=spf1 include:_spf.esp.example ~all'),
    ...[
      'google-site-verification',
      'MS',
      'facebook-domain-verification',
      'atlassian-domain-verification',
      'docusign',
      'apple-domain-verification',
      'stripe-verification',
    ].map((k, i) => txt(DOMAIN, `${k}=${String(i).repeat(4)}${'a1b2c3d4e5'.repeat(7)}`)),
    txt('_spf.esp.example', 'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/48 -all'),
    txt(`google._domainkey.${DOMAIN}`, `v=DKIM1; k=rsa; p=${key}`),
    txt(`_dmarc.${DOMAIN}`, 'v=DMARC1; p=reject; rua=mailto:reports@esp.example'),
    txt(`${DOMAIN}._report._dmarc.esp.example`, 'v=DMARC1'),
    { name: DOMAIN, type: 'MX', data: { preference: 10, exchange: `mx1.${DOMAIN}` } },
    { name: DOMAIN, type: 'MX', data: { preference: 20, exchange: `MX2.${DOMAIN.toUpperCase()}.` } },
    { name: `mx1.${DOMAIN}`, type: 'A', data: '192.0.2.11' },
    { name: `mx2.${DOMAIN}`, type: 'A', data: '192.0.2.12' },
  ];
}

export interface DnsBenchFigures {
  readonly runs: number;
  readonly questions: number;
  readonly distinct_questions: number;
  readonly questions_per_distinct: number;
  readonly tcp_questions: number;
  /** Questions whose UDP answer was over 512 octets (they would need TCP without EDNS). */
  readonly answers_over_512: number;
  readonly cpu_ms_per_check_pooled: number;
  readonly cpu_ms_per_check_fresh_socket: number;
  readonly cpu_pooled_per_fresh: number;
  readonly sockets_per_check_pooled: number;
  readonly grade: string | null;
}

type MakeContext = (pool: UdpSocketPool) => FullCheckContext;

/** CPU per check over RUNS checks sharing one pool (a fresh lookup per check, as per request). */
async function cpuPerCheck(makeContext: MakeContext, questionsPerSocket: number): Promise<{ cpuMs: number; sockets: number }> {
  const pool = createUdpSocketPool({ questionsPerSocket });
  try {
    await checkDeliverability({ domain: DOMAIN }, makeContext(pool)); // warm-up
    const opened = pool.socketsOpened;
    const start = process.cpuUsage();
    for (let i = 0; i < RUNS; i += 1) await checkDeliverability({ domain: DOMAIN }, makeContext(pool));
    const used = process.cpuUsage(start);
    return { cpuMs: (used.user + used.system) / 1000 / RUNS, sockets: (pool.socketsOpened - opened) / RUNS };
  } finally {
    pool.close();
  }
}

export async function benchDns(): Promise<DnsBenchFigures> {
  const records = zone();
  const dns = await startTestDnsServer({ records });
  const rdap = await startTestRdapServer({
    tlds: ['example'],
    domains: { [DOMAIN]: rdapDomain(DOMAIN, 'Example Registrar, Inc.', '2015-03-01T12:00:00Z', '2027-09-01T12:00:00Z') },
  });
  try {
    const registration = readSettings({ RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl }).registration;
    const makeContext: MakeContext = (pool) => ({
      dns: createDnsLookup({ servers: [dns.server], timeoutMs: 2000, tries: 1, concurrency: 64, pool }),
      https: { get: () => Promise.reject(new Error('the grade fetches nothing over HTTPS')) },
      now: () => new Date('2026-09-26T00:00:00Z'),
      blacklist: { spamhausDqsKey: null },
      registration,
      googleTenancy: { probe: () => Promise.resolve('unknown') },
    });

    // (a) one check: every question once, over UDP.
    const pool = createUdpSocketPool({ questionsPerSocket: 100 });
    const before = dns.questions.length;
    const answer = await checkDeliverability({ domain: DOMAIN }, makeContext(pool));
    pool.close();
    const asked = dns.questions.slice(before);
    const keys = [...new Set(asked.map((q) => `${q.name}|${q.type}`))];
    const tcp = asked.filter((q) => q.transport === 'tcp').length;
    const over512 = await answersOver512(dns, keys);

    // (b) CPU, against a server in another process, alternating the two modes so drift on a shared machine hits both.
    const child = await serveInChild(records);
    const remote: MakeContext = (p) => ({
      ...makeContext(p),
      dns: createDnsLookup({ servers: [`127.0.0.1:${child.port}`], timeoutMs: 2000, tries: 1, concurrency: 64, pool: p }),
    });
    const pooled: number[] = [];
    const fresh: number[] = [];
    let sockets = 0;
    for (let round = 0; round < 3; round += 1) {
      const p = await cpuPerCheck(remote, 100);
      pooled.push(p.cpuMs);
      sockets = p.sockets;
      fresh.push((await cpuPerCheck(remote, 1)).cpuMs);
    }
    child.close();
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const round2 = (n: number) => Math.round(n * 100) / 100;
    return {
      runs: RUNS,
      questions: asked.length,
      distinct_questions: keys.length,
      questions_per_distinct: round2(asked.length / keys.length),
      tcp_questions: tcp,
      answers_over_512: over512,
      cpu_ms_per_check_pooled: round2(median(pooled)),
      cpu_ms_per_check_fresh_socket: round2(median(fresh)),
      cpu_pooled_per_fresh: round2(median(pooled) / median(fresh)),
      sockets_per_check_pooled: round2(sockets),
      grade: answer.grade,
    };
  } finally {
    await Promise.all([dns.close(), rdap.close()]);
  }
}

/** Counts the questions whose full answer is over 512 octets, by encoding what the server would send. */
async function answersOver512(dns: TestDnsServer, keys: string[]): Promise<number> {
  const socket = createSocket('udp4');
  let count = 0;
  try {
    for (const key of keys) {
      const [name, type] = key.split('|') as [string, 'TXT'];
      const size = await new Promise<number>((resolve) => {
        const timer = setTimeout(() => resolve(0), 1000);
        socket.once('message', (bytes) => {
          clearTimeout(timer);
          resolve(bytes.length);
        });
        socket.send(encodeQuery(1, name, type), dns.port, '127.0.0.1');
      });
      if (size > 512) count += 1;
    }
  } finally {
    socket.close();
  }
  return count;
}

/** The same test server in a child process (this file run with --serve-dns), so its CPU is not ours. */
async function serveInChild(records: ZoneRecord[]): Promise<{ port: number; close(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve-dns'], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_DNS_ZONE: JSON.stringify(records) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the DNS server process exited (${code})`)));
  });
  return { port, close: () => child.kill() };
}

if (process.argv.includes('--serve-dns')) {
  const server = await startTestDnsServer({ records: JSON.parse(process.env.BENCH_DNS_ZONE ?? '[]') as ZoneRecord[] });
  process.send?.({ port: server.port });
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = await benchDns();
  console.log(JSON.stringify(f, null, 1));
}
