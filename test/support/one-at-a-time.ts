import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A lock across the test workers (and across runs on one machine): `await oneAtATime(name)` waits
 * until no other process holds `name`, then holds it until the returned release is called. For test
 * files that must not overlap: the ones starting several server processes on one PostgreSQL, whose
 * pools together would take the server's 100 connections ("sorry, too many clients already").
 * A holder that died without releasing (its pid is gone) is taken over.
 */
export async function oneAtATime(name: string, timeoutMs = 120_000): Promise<() => void> {
  const dir = join(tmpdir(), `svc-test-lock-${name}`);
  const owner = join(dir, 'pid');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(owner, String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    }
    if (!holderAlive(owner)) rmSync(dir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for the test lock ${dir}; remove it if no test run holds it.`);
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function holderAlive(ownerFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(ownerFile, 'utf8'));
  } catch {
    // Just made, its pid not written yet: treat it as held.
    return true;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
