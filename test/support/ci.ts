/**
 * Whether this run is CI: `CI` set to anything but "", "0" or "false" (.ci/run sets CI=1, as most CI
 * services do). Under CI the services the suite relies on (Chromium, Redis) are required: a test that
 * needs one fails when it is missing instead of skipping, so a broken install cannot pass unseen.
 */
export const inCi = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());
