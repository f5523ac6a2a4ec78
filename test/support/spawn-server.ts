import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provided } from './provided.js';

/** The repository root, so a child starts from the same files whatever the caller's working folder. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A file of the service as plain JavaScript, from the run's transpiled copy (transpiled-copy.ts):
 * `server/main.ts` gives the copy's `server/main.js`. The child still runs in the repository
 * (cwd), so relative paths such as ./data mean what they mean to `npm start`.
 */
export function transpiled(source: string): string {
  return join(provided('transpiledRoot'), source.replace(/\.ts$/, '.js'));
}

/**
 * Loaded before the server: fetch refuses anything but 127.0.0.1, so a child never reaches the
 * internet (the Google tenancy probe, RDAP bootstrap) and answers as it would offline, at once.
 * A data: URL, so nothing is added to the production code or files.
 */
const LOOPBACK_ONLY_FETCH =
  'data:text/javascript,' +
  encodeURIComponent(`
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const host = new URL(href).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') return Promise.reject(new TypeError('fetch failed: this test process only reaches 127.0.0.1'));
  return realFetch(input, init);
};`);

export interface SpawnedServer {
  readonly pid: number;
  readonly publicUrl: string;
  readonly apiUrl: string;
  readonly child: ChildProcess;
  /** Everything the process wrote so far (JSON log lines and the start banner). */
  stdout(): string;
  stderr(): string;
  /** stdout lines that parse as JSON objects (the structured log). */
  logLines(): Record<string, unknown>[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Sends a signal to this process only (never a group or a name). */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `graceMs` if it is still running; resolves with how it exited. */
  stop(graceMs?: number): Promise<number | string>;
}

export interface SpawnOptions {
  /**
   * Added to a clean environment (PATH and HOME are kept). Defaults: free ports, and DNS, RDAP and
   * WHOIS pointed at 127.0.0.1:9 where nothing answers. A value of undefined removes a default.
   */
  readonly env?: Record<string, string | undefined>;
  /** How long to wait for the two "listening" lines of the banner. */
  readonly startTimeoutMs?: number;
}

/**
 * Starts server/main.ts as a real process, the way an operator runs one instance, on 127.0.0.1 with
 * free ports (PUBLIC_PORT=0, API_PORT=0), and waits until it prints where it listens. It runs from the
 * transpiled copy with plain node, as `npm start` runs its .build/ copy (scripts/build.mjs makes both).
 */
export async function spawnServer(options: SpawnOptions = {}): Promise<SpawnedServer> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    HOST: '127.0.0.1',
    PUBLIC_PORT: '0',
    API_PORT: '0',
    // Nothing listens on port 9 (discard): lookups fail at once rather than reach the internet.
    DNS_SERVERS: '127.0.0.1:9',
    RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/none',
    WHOIS_SERVER: '127.0.0.1:9',
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY_FETCH, transpiled('server/main.ts')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  // Benchmarks log a line per request: past 4 MB only the newest 1 MB is kept (the banner is parsed first).
  const keep = (text: string) => (text.length > 4_000_000 ? text.slice(-1_000_000) : text);
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out = keep(out + chunk);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err = keep(err + chunk);
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });

  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const urls = await new Promise<{ publicUrl: string; apiUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const check = () => {
      const pub = /Public checks API: (http:\/\/\S+)/.exec(out)?.[1];
      const api = /Account API:\s+(http:\/\/\S+)/.exec(out)?.[1];
      if (pub && api) {
        done();
        resolve({ publicUrl: pub, apiUrl: api });
      }
    };
    const onExit = (code: number | null) => fail(`exited with ${code} before listening`);
    function done() {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
    }
    function fail(why: string) {
      done();
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(new Error(`The server process ${why}.\nstdout:\n${out.slice(-2000)}\nstderr:\n${err.slice(-2000)}`));
    }
    child.stdout!.on('data', check);
    child.once('exit', onExit);
    check();
  });

  const server: SpawnedServer = {
    pid: child.pid!,
    ...urls,
    child,
    stdout: () => out,
    stderr: () => err,
    logLines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    async stop(graceMs = 10_000) {
      server.signal('SIGTERM');
      const timer = setTimeout(() => server.signal('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return server;
}

/** Runs admin/cli.ts <args> (from the transpiled copy) with the given environment and returns its JSON answer. */
export async function runAdmin(args: readonly string[], env: Record<string, string | undefined>): Promise<Record<string, unknown>> {
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  const child = spawn(process.execPath, [transpiled('admin/cli.ts'), ...args], { cwd: repoRoot, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    out += c;
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    err += c;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}: ${err.trim() || out.trim()}`);
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) throw new Error(`admin ${args.join(' ')} printed no JSON: ${out}`);
  return JSON.parse(line) as Record<string, unknown>;
}
