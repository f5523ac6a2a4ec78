import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

/** Debian's bind9 (named); .ci/run installs it, and a test needing it fails saying so when it is missing. */
export const NAMED = '/usr/sbin/named';

export interface BindZone {
  readonly name: string;
  /** Zone-file lines after the SOA and NS, relative to the zone's origin. */
  readonly records: readonly string[];
}

export interface BindServer {
  readonly port: number;
  /** The TSIG key the zones grant updates to. */
  readonly key: { readonly name: string; readonly algorithm: 'hmac-sha256' | 'hmac-sha512'; readonly secret: string };
  /** What named printed (-g logs to stderr): to look for a secret in it. */
  output(): string;
  stop(): Promise<void>;
}

export interface BindOptions {
  readonly zones: readonly BindZone[];
  readonly algorithm?: 'hmac-sha256' | 'hmac-sha512';
  /**
   * Also serve as the service's resolver (DNS_SERVERS): recursion offered to loopback (so answers
   * carry RA, which the checks engine asks of a resolver) over a root zone of its own holding nothing,
   * so every name outside `zones` is NXDOMAIN at once and nothing is asked of the internet.
   */
  readonly resolver?: boolean;
}

/**
 * A port on 127.0.0.1 free for TCP and for UDP at this moment (named listens on the same number for
 * both). Another process can still take it before named binds, so startBindServer retries on a new
 * port when named says it could not listen.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const udp = createSocket('udp4');
    const udpFree = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(address.port, '127.0.0.1', () => resolve(true));
    });
    udp.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (udpFree) return address.port;
  }
}

/** named's words when the port it was given is taken (by UDP or TCP) between freePort() and its bind. */
const PORT_TAKEN = /unable to listen on any configured interfaces|address in use/i;

/**
 * A real BIND on 127.0.0.1 and a free port, serving the given zones as primary, each letting one
 * TSIG key update any name in it (update-policy zonesub). Runs in the foreground of a child process
 * (named -g) with its files in a fresh folder; stop() ends that one process and removes the folder.
 */
export async function startBindServer(options: BindOptions): Promise<BindServer> {
  if (!existsSync(NAMED)) throw new Error(`${NAMED} is missing: apt-get install -y bind9 (.ci/run does).`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startBindOnce(options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** named exited because its port was taken after freePort() chose it: another port will do. */
class PortTaken extends Error {}

async function startBindOnce(options: BindOptions): Promise<BindServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bind-test-'));
  const port = await freePort();
  const key = { name: 'publish-key', algorithm: options.algorithm ?? 'hmac-sha256', secret: randomBytes(32).toString('base64') } as const;
  const zones = options.zones
    .map((zone) => {
      const file = join(dir, `${zone.name}.zone`);
      writeFileSync(
        file,
        [
          '$TTL 300',
          `@ IN SOA ns1.${zone.name}. hostmaster.${zone.name}. 1 3600 600 86400 300`,
          `@ IN NS ns1.${zone.name}.`,
          'ns1 IN A 127.0.0.1',
          ...zone.records,
          '',
        ].join('\n'),
      );
      return `zone "${zone.name}" { type primary; file "${file}"; update-policy { grant ${key.name} zonesub ANY; }; };`;
    })
    .join('\n');
  let root = '';
  if (options.resolver) {
    const file = join(dir, 'root.zone');
    writeFileSync(
      file,
      ['$TTL 300', '@ IN SOA a.root.invalid. hostmaster.invalid. 1 3600 600 86400 300', '@ IN NS a.root.invalid.', 'a.root.invalid. IN A 127.0.0.1', ''].join(
        '\n',
      ),
    );
    root = `zone "." { type primary; file "${file}"; };`;
  }
  writeFileSync(
    join(dir, 'named.conf'),
    `options {
  directory "${dir}";
  pid-file "${join(dir, 'named.pid')}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion ${options.resolver ? 'yes; allow-recursion { 127.0.0.1; }' : 'no'};
  dnssec-validation no;
  allow-transfer { none; };
};
controls { };
key "${key.name}" { algorithm ${key.algorithm}; secret "${key.secret}"; };
${root}
${zones}
`,
  );
  let output = '';
  const child: ChildProcess = spawn(NAMED, ['-g', '-4', '-n', '1', '-c', join(dir, 'named.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Listening comes before the zones are loaded: wait for the port to answer, then for named to say
  // it is running.
  const started = await waitFor(
    'named listening',
    async () => (child.exitCode !== null ? 'exited' : (await answersTcp(port)) && 'listening'),
    15_000,
    100,
  ).catch(() => 'timed out');
  if (started !== 'listening') {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    if (PORT_TAKEN.test(output)) throw new PortTaken(`named could not listen on port ${port}:\n${output}`);
    throw new Error(`named did not start:\n${output}`);
  }
  await waitFor('named to load its zones', () => output.includes('running'), 15_000).catch(() => {
    throw new Error(`named did not load its zones:\n${output}`);
  });
  return {
    port,
    key,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      // A guard, not a wait: named normally exits at once on SIGTERM; SIGKILL if it has not within 5 s.
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function answersTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What BIND serves at a name and type, asked over plain UDP (no TSIG): the tests' own look, independent of the publisher. */
export async function askBind(port: number, name: string, type: 'MX' | 'TXT' | 'A' | 'CNAME'): Promise<string[]> {
  const socket = createSocket('udp4');
  try {
    const answer = await new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('BIND did not answer')), 3000);
      socket.once('message', (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      socket.send(dnsPacket.encode({ type: 'query', id: 7, questions: [{ type, name }] }), port, '127.0.0.1');
    });
    return (dnsPacket.decode(answer).answers ?? []).flatMap((a) => {
      if (a.type === 'MX') return [`${a.data.preference} ${a.data.exchange}`];
      if (a.type === 'TXT') return [(Array.isArray(a.data) ? a.data : [a.data]).map((c) => c.toString()).join('')];
      if (a.type === 'A' || a.type === 'CNAME') return [a.data];
      return [];
    });
  } finally {
    socket.close();
  }
}
