import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { transpileRepository } from '../../scripts/build.mjs';
import { madeOncePerRun } from './made-once-per-run.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A copy of the repository with its TypeScript already turned into JavaScript (transpiled-copy.ts). */
    transpiledRoot: string;
  }
}

/**
 * vitest globalSetup: the repository once more, with each .ts file turned into .js by esbuild and
 * every other file linked, so the tests that start the server or the admin command as a process
 * (spawn-server.ts) run it with plain node. It is the copy `npm start` runs from .build/ (the same
 * function, scripts/build.mjs), made once per run in a folder of its own so a test never races a
 * developer's `npm start`. Measured, a server start took 7.2 s of CPU under tsx (which makes the same
 * transform at every start, through module hooks on a second thread) and 4.6 s from this copy.
 */
export default async function transpiledCopy(project: TestProject): Promise<() => Promise<void>> {
  const copy = await madeOncePerRun('transpiled-copy', makeCopy, (dir) => rmSync(dir, { recursive: true, force: true }));
  project.provide('transpiledRoot', copy.made);
  return copy.release;
}

async function makeCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-transpiled-'));
  await transpileRepository(dir);
  return dir;
}
