import { readSettings } from '../../config/settings.js';
import { describe, expect, it } from 'vitest';
import { heartbeatIntervalMs } from '../../jobs/worker-lease.js';

describe('the worker lease settings', () => {
  it('JOB_LEASE_MS defaults to a minute and refuses less than a second with a sentence naming it', () => {
    expect(readSettings({}).jobs.leaseMs).toBe(60_000);
    expect(readSettings({ JOB_LEASE_MS: '3000' }).jobs.leaseMs).toBe(3000);
    expect(() => readSettings({ JOB_LEASE_MS: '500' }).jobs).toThrow(/JOB_LEASE_MS must be a whole number of at least 1000/);
    expect(() => readSettings({ JOB_LEASE_MS: 'a minute' }).jobs).toThrow(/JOB_LEASE_MS/);
  });

  it('workers report four times per lease, at most every 5 s and at least every 250 ms apart', () => {
    expect(heartbeatIntervalMs(60_000)).toBe(5000);
    expect(heartbeatIntervalMs(3000)).toBe(750);
    expect(heartbeatIntervalMs(1000)).toBe(250);
  });

  it('JOB_TEST_PAUSE names points and milliseconds, and refuses anything else', () => {
    expect([...readSettings({ JOB_TEST_PAUSE: 'build_after_building:60000' }).jobs.testPauses]).toEqual([['build_after_building', 60_000]]);
    expect(readSettings({}).jobs.testPauses.size).toBe(0);
    expect(() => readSettings({ JOB_TEST_PAUSE: 'build_after_building' }).jobs).toThrow(/JOB_TEST_PAUSE must be "point:milliseconds"/);
  });
});

describe('the outbox folder', () => {
  it('sits in DATA_DIR unless ALERT_OUTBOX_DIR names another', () => {
    expect(readSettings({}).jobs.outboxDir).toBe('./data/outbox');
    expect(readSettings({ DATA_DIR: '/srv/inbox-data/' }).jobs.outboxDir).toBe('/srv/inbox-data/outbox');
    expect(readSettings({ DATA_DIR: '/srv/inbox-data', ALERT_OUTBOX_DIR: '/var/mail/out' }).jobs.outboxDir).toBe('/var/mail/out');
  });
});
