import { metricsText } from '../../observability/metrics.js';
import { waitFor } from '../support/wait-for.js';

/** How many jobs of a task this process has finished (the jobs' duration histogram, by task: jobs/*-runner.ts). */
export async function jobsFinished(task: string): Promise<number> {
  const escaped = task.replace(/[^a-z_]/g, '');
  return Number(new RegExp(`job_duration_seconds_count\\{task="${escaped}"\\} (\\d+)`).exec(await metricsText())?.[1] ?? 0);
}

/**
 * Waits until `more` further jobs of `task` have finished: the positive marker an absence check
 * needs ("two sweeps have run since, and changed nothing") in place of a sleep.
 */
export async function waitForJobsFinished(task: string, more: number, timeoutMs = 30_000): Promise<void> {
  const then = await jobsFinished(task);
  await waitFor(`${more} more ${task} jobs finished`, async () => (await jobsFinished(task)) >= then + more, timeoutMs);
}
