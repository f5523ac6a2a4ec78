import { vi } from 'vitest';

/**
 * Setup file, run before each test file. The workers run several files one after another
 * (isolate: false in vitest.config.ts) so that packages under node_modules, which Node loads and
 * caches itself, are loaded once per worker. Our own modules go through vitest's module runner:
 * forgetting them here makes each file evaluate them anew, with module state (metrics registry, log
 * settings, caches) of its own, as when every file had a process to itself.
 */
vi.resetModules();
