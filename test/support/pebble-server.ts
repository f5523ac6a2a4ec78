import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createTestCa, type TestCa } from './test-ca.js';

/** Where Debian's package puts Let's Encrypt's test ACME server (.ci/run installs it). */
export const PEBBLE_PATH = '/usr/bin/pebble';

export function pebbleInstalled(): boolean {
  return existsSync(PEBBLE_PATH);
}

export interface PebbleServer {
  /** The ACME directory (RFC 8555 7.1.1), for ACME_DIRECTORY_URL. */
  readonly directoryUrl: string;
  /** A PEM file of the CA that signed pebble's own HTTPS certificate, for ACME_CA_FILE. */
  readonly caFile: string;
  /** The CA's PEM itself. */
  readonly caPem: string;
  /** The root CA pebble made at this start (its management interface's /roots/0), PEM: what its certificates chain to. */
  rootPem(): Promise<string>;
  /** Everything pebble wrote so far (its log). */
  output(): string;
  close(): Promise<void>;
}

export interface PebbleOptions {
  /** The port HTTP-01 validations connect to on the address each name resolves to: the forwarding listener's. */
  readonly httpPort: number;
  /** "ADDRESS:PORT" of the DNS server pebble resolves the names it validates with (a test DNS server). */
  readonly dnsServer: string;
}

/** A port nobody listens on now (pebble must be told its port before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Debian's pebble, Let's Encrypt's ACME test server, as a child process: its directory served over
 * HTTPS with a certificate from a throw-away CA made here (the package ships none), HTTP-01
 * validations sent to `httpPort` at the address `dnsServer` gives for each name, without pebble's
 * random sleeps and nonce rejections (PEBBLE_VA_NOSLEEP=1, PEBBLE_WFE_NONCEREJECT=0). Resolves once
 * pebble logs that its directory is available.
 */
export async function startPebble(options: PebbleOptions): Promise<PebbleServer> {
  const ca: TestCa = createTestCa('Pebble Directory Test CA');
  const issued = ca.issue({ hosts: ['localhost'] });
  const certFile = join(ca.dir, 'pebble-cert.pem');
  const keyFile = join(ca.dir, 'pebble-key.pem');
  const caFile = join(ca.dir, 'pebble-ca.pem');
  writeFileSync(certFile, issued.chainPem);
  writeFileSync(keyFile, issued.keyPem);
  writeFileSync(caFile, ca.certPem);
  const [port, managementPort] = [await freePort(), await freePort()];
  const configFile = join(ca.dir, 'pebble-config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: certFile,
        privateKey: keyFile,
        httpPort: options.httpPort,
        // TLS-ALPN-01 is not used here; a port nothing listens on.
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child: ChildProcess = spawn(PEBBLE_PATH, ['-config', configFile, '-dnsserver', options.dnsServer], {
    // PEBBLE_AUTHZREUSE=0: every order is validated afresh, so each one goes through the listener's HTTP-01 answer.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  await new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ACME directory available at/.test(output)) resolve();
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('error', reject);
    void exited.then((how) => reject(new Error(`pebble exited (${how}) before its directory was available:\n${output}`)));
  });
  return {
    directoryUrl: `https://localhost:${port}/dir`,
    caFile,
    caPem: ca.certPem,
    output: () => output,
    rootPem: () =>
      new Promise((resolve, reject) => {
        get(`https://localhost:${managementPort}/roots/0`, { ca: ca.certPem }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`pebble /roots/0 answered ${res.statusCode}: ${body}`))));
        }).on('error', reject);
      }),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      ca.close();
    },
  };
}
