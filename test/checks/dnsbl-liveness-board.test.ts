import { describe, expect, it } from 'vitest';
import { createDnsblLivenessBoard, type DnsblProbe } from '../../resolvers/checks/blacklist/dnsbl-liveness-board.js';

const MINUTE = 60_000;
const probe = (list_id: string, alive: boolean | null, probedAt: number, zone_digest = 'digest'): DnsblProbe => ({
  list_id,
  zone: `${list_id}.example`,
  zone_digest,
  alive,
  reason: alive === true ? null : `${list_id} failed`,
  probed_at: new Date(probedAt),
});

/** A clock the test moves, and a store whose rows and reads the test sees. */
function setUp(rows: DnsblProbe[], intervalMs = 5 * MINUTE) {
  let now = 10 * MINUTE;
  const store = { rows, reads: 0, fail: false };
  const board = createDnsblLivenessBoard(
    {
      read: async () => {
        store.reads += 1;
        if (store.fail) throw new Error('the database is down');
        return store.rows;
      },
    },
    { intervalMs, rereadMs: 5000, now: () => now },
  );
  return { board, store, advance: (ms: number) => (now += ms), now: () => now };
}

describe('the shared liveness board', () => {
  it('gives a conclusive probe of the same zone until it is twice the interval old, then nothing', async () => {
    const { board, advance } = setUp([probe('alive_list', true, 9 * MINUTE), probe('dead_list', false, 9 * MINUTE)]);
    expect(await board.find('alive_list', 'digest')).toMatchObject({ alive: true });
    expect(await board.find('dead_list', 'digest')).toMatchObject({ alive: false, reason: 'dead_list failed' });
    advance(9 * MINUTE); // 10 minutes old: exactly twice the interval, still fresh
    expect(await board.find('alive_list', 'digest')).toMatchObject({ alive: true });
    advance(1);
    expect(await board.find('alive_list', 'digest')).toBeNull();
    expect(await board.find('dead_list', 'digest')).toBeNull();
  });

  it('does not answer for another zone (another DQS key), an unknown list, or an inconclusive probe', async () => {
    const { board } = setUp([probe('dqs_list', true, 9 * MINUTE, 'other-key'), probe('unsure', null, 9 * MINUTE)]);
    expect(await board.find('dqs_list', 'digest')).toBeNull();
    expect(await board.find('nobody', 'digest')).toBeNull();
    expect(await board.find('unsure', 'digest')).toBeNull();
  });

  it('reads the store once for a burst of requests, again after five seconds, and shows another instance’s probe then', async () => {
    const { board, store, advance, now } = setUp([]);
    await Promise.all(Array.from({ length: 50 }, () => board.find('late', 'digest')));
    expect(store.reads).toBe(1);
    store.rows = [probe('late', true, now())]; // another instance probes
    expect(await board.find('late', 'digest')).toBeNull();
    advance(5001);
    await board.find('late', 'digest'); // starts the read in the background; this request does not wait
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.reads).toBe(2);
    expect(await board.find('late', 'digest')).toMatchObject({ alive: true });
  });

  it('uses this instance’s own probe at once, and keeps the newer of two', async () => {
    const { board, store, advance, now } = setUp([probe('list', false, 9 * MINUTE)]);
    expect(await board.find('list', 'digest')).toMatchObject({ alive: false });
    board.remember([probe('list', true, now())]);
    expect(await board.find('list', 'digest')).toMatchObject({ alive: true });
    advance(5001);
    await board.find('list', 'digest');
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.reads).toBe(2);
    // The store still holds the older row: it does not replace the newer probe.
    expect(await board.find('list', 'digest')).toMatchObject({ alive: true });
  });

  it('with the store unreachable, finds nothing (requests ask the test points themselves) and does not read on every request', async () => {
    const { board, store } = setUp([probe('list', true, 9 * MINUTE)]);
    store.fail = true;
    expect(await board.find('list', 'digest')).toBeNull();
    expect(await board.find('list', 'digest')).toBeNull();
    expect(store.reads).toBe(1);
  });
});
