import { describe, expect, it } from 'vitest';
import { jobsConfigFromEnv } from '../../jobs/jobs-config.js';
import { heartbeatIntervalMs } from '../../jobs/worker-lease.js';

describe('the worker lease settings', () => {
  it('JOB_LEASE_MS defaults to a minute and refuses less than a second with a sentence naming it', () => {
    expect(jobsConfigFromEnv({}).leaseMs).toBe(60_000);
    expect(jobsConfigFromEnv({ JOB_LEASE_MS: '3000' }).leaseMs).toBe(3000);
    expect(() => jobsConfigFromEnv({ JOB_LEASE_MS: '500' })).toThrow(/JOB_LEASE_MS must be a whole number of at least 1000/);
    expect(() => jobsConfigFromEnv({ JOB_LEASE_MS: 'a minute' })).toThrow(/JOB_LEASE_MS/);
  });

  it('workers report four times per lease, at most every 5 s and at least every 250 ms apart', () => {
    expect(heartbeatIntervalMs(60_000)).toBe(5000);
    expect(heartbeatIntervalMs(3000)).toBe(750);
    expect(heartbeatIntervalMs(1000)).toBe(250);
  });

  it('JOB_TEST_PAUSE names points and milliseconds, and refuses anything else', () => {
    expect([...jobsConfigFromEnv({ JOB_TEST_PAUSE: 'build_after_building:60000' }).testPauses]).toEqual([['build_after_building', 60_000]]);
    expect(jobsConfigFromEnv({}).testPauses.size).toBe(0);
    expect(() => jobsConfigFromEnv({ JOB_TEST_PAUSE: 'build_after_building' })).toThrow(/JOB_TEST_PAUSE must be "point:milliseconds"/);
  });
});

describe('the outbox folder', () => {
  it('sits in DATA_DIR unless ALERT_OUTBOX_DIR names another', () => {
    expect(jobsConfigFromEnv({}).outboxDir).toBe('./data/outbox');
    expect(jobsConfigFromEnv({ DATA_DIR: '/srv/inbox-data/' }).outboxDir).toBe('/srv/inbox-data/outbox');
    expect(jobsConfigFromEnv({ DATA_DIR: '/srv/inbox-data', ALERT_OUTBOX_DIR: '/var/mail/out' }).outboxDir).toBe('/var/mail/out');
  });
});
