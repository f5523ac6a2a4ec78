import { describe, expect, it } from 'vitest';
import { nextStep, raiseDmarc, stepOf } from '../../resolvers/dmarc-ramp/ramp-steps.js';
import { judgeRampReadiness, type FailingSource } from '../../resolvers/dmarc-ramp/ramp-readiness.js';

const OURS = 'dmarc@reports.example.net';

describe('the ramp steps', () => {
  it('reads the step of a record from p= and pct=', () => {
    expect(stepOf(null)).toBe('none');
    expect(stepOf('v=DMARC1; p=none')).toBe('none');
    expect(stepOf('v=DMARC1')).toBe('none');
    expect(stepOf('v=DMARC1; p=quarantine; pct=25')).toBe('quarantine_25');
    expect(stepOf('v=DMARC1; P=Quarantine; PCT=50')).toBe('quarantine_25');
    expect(stepOf('v=DMARC1; p=quarantine; pct=100')).toBe('quarantine');
    expect(stepOf('v=DMARC1; p=quarantine')).toBe('quarantine');
    expect(stepOf('v=DMARC1; p=reject; pct=10')).toBe('reject');
    expect([nextStep('none'), nextStep('quarantine_25'), nextStep('quarantine'), nextStep('reject')]).toEqual(['quarantine_25', 'quarantine', 'reject', null]);
  });

  it('raises p= (and pct=) and keeps every other tag, in order, and every report address, ours added', () => {
    const theirs = 'v=DMARC1; p=none; sp=reject; adkim=s; rua=mailto:agg@example.com,mailto:x@vendor.test!10m; ruf=mailto:f@example.com; fo=1';
    expect(raiseDmarc(theirs, 'quarantine_25', OURS)).toBe(
      `v=DMARC1; p=quarantine; pct=25; sp=reject; adkim=s; rua=mailto:agg@example.com,mailto:x@vendor.test!10m,mailto:${OURS}; ruf=mailto:f@example.com; fo=1`,
    );
    expect(raiseDmarc(`v=DMARC1; p=quarantine; pct=25; rua=mailto:${OURS}`, 'quarantine', OURS)).toBe(`v=DMARC1; p=quarantine; rua=mailto:${OURS}`);
    expect(raiseDmarc(`v=DMARC1; p=quarantine; rua=mailto:${OURS}; pct=100`, 'reject', OURS)).toBe(`v=DMARC1; p=reject; rua=mailto:${OURS}`);
    // A record without p= (invalid, taken as none by receivers) gets it after v=.
    expect(raiseDmarc('v=DMARC1; rua=mailto:a@example.com', 'quarantine_25', OURS)).toBe(
      `v=DMARC1; p=quarantine; pct=25; rua=mailto:a@example.com,mailto:${OURS}`,
    );
  });
});

describe('readiness', () => {
  const figures = { from: '2026-11-01', to: '2026-11-27', days: 14, messages: 1000, passed: 995 };
  const spoofer: FailingSource = { sourceIp: '198.51.100.9', ptr: null, service: null, failed: 5, ownSender: false };

  it('is ready with 14 days, at least 99% passing, and no failing sender of the customer', () => {
    expect(judgeRampReadiness('example.com', 'none', figures, [spoofer])).toEqual({ nextStep: 'quarantine_25', ready: true, blockedBy: null, passRate: 99.5 });
  });

  it('names what blocks it: too few days, an own sender, an unknown one, a low pass rate; nothing at the top', () => {
    expect(judgeRampReadiness('example.com', 'none', { ...figures, days: 13 }, []).blockedBy).toBe(
      'example.com has authenticated DMARC reports on 13 days since 2026-11-01; p=quarantine; pct=25 (a quarter of failing mail to spam) needs 14, so wait for more reports.',
    );
    const own: FailingSource = { sourceIp: '192.0.2.25', ptr: 'o1.sendgrid.net', service: 'SendGrid', failed: 5, ownSender: true };
    expect(judgeRampReadiness('example.com', 'quarantine', figures, [spoofer, own]).blockedBy).toContain('192.0.2.25 (o1.sendgrid.net, SendGrid) fails DMARC');
    expect(judgeRampReadiness('example.com', 'none', figures, [{ ...spoofer, ownSender: null }]).blockedBy).toContain('could not be evaluated');
    const low = judgeRampReadiness('example.com', 'none', { ...figures, passed: 980 }, [spoofer]);
    expect(low).toMatchObject({ ready: false, passRate: 98 });
    expect(low.blockedBy).toContain('needs at least 99%');
    expect(judgeRampReadiness('example.com', 'reject', figures, [])).toEqual({ nextStep: null, ready: false, blockedBy: null, passRate: 99.5 });
  });
});
