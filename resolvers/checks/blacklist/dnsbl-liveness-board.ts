import { log } from '../../../observability/log.js';

/** One list's probe of its RFC 5782 test points, as the background job stores it (db/dnsbl-liveness.ts). */
export interface DnsblProbe {
  readonly list_id: string;
  /** The zone as shown (a DQS zone without its key). */
  readonly zone: string;
  /** zoneDigest() of the zone asked: a probe of another zone (another DQS key) is not this one's. */
  readonly zone_digest: string;
  /** true: it passed its test points; false: it failed them; null: a test point gave no usable answer. */
  readonly alive: boolean | null;
  readonly reason: string | null;
  readonly probed_at: Date;
}

/** Where the probes are shared between instances: the dnsbl_liveness table. */
export interface DnsblLivenessStore {
  read(): Promise<readonly DnsblProbe[]>;
}

/**
 * The lists' last probes as this instance knows them. A list's liveness is not a check result: it is
 * the same for every request, so it is probed in the background and shared, and a request asks the
 * test points itself only when the probe is stale, missing or inconclusive.
 */
export interface DnsblLivenessBoard {
  /** DNSBL_LIVENESS_INTERVAL_MS: how often the job probes. */
  readonly intervalMs: number;
  /**
   * The list's probe when a request may use it instead of asking: of this zone, no older than twice
   * the interval, and conclusive (alive true or false). null: the request asks the test points itself.
   */
  find(listId: string, zoneDigest: string): Promise<DnsblProbe | null>;
  /** The probe that just ran on this instance: used at once, before the next read of the store. */
  remember(probes: readonly DnsblProbe[]): void;
}

export interface DnsblLivenessBoardOptions {
  readonly intervalMs: number;
  /** How long a read of the store serves before the next (probes by other instances show within this). */
  readonly rereadMs?: number;
  readonly now?: () => number;
}

/** Other instances' probes reach this one within this long: one small read per 5 s per instance. */
const REREAD_MS = 5000;

export function createDnsblLivenessBoard(store: DnsblLivenessStore, options: DnsblLivenessBoardOptions): DnsblLivenessBoard {
  const { intervalMs, rereadMs = REREAD_MS, now = Date.now } = options;
  const probes = new Map<string, DnsblProbe>();
  let readAt: number | null = null;
  let reading: Promise<void> | null = null;

  const keepNewer = (probe: DnsblProbe) => {
    const known = probes.get(probe.list_id);
    if (!known || known.probed_at.getTime() <= probe.probed_at.getTime()) probes.set(probe.list_id, probe);
  };

  function reread(): Promise<void> {
    reading ??= store
      .read()
      .then(
        (rows) => rows.forEach(keepNewer),
        // The database unreachable: the requests ask the test points themselves, as without a probe.
        (error: Error) => log('warn', 'could not read the blocklists’ shared liveness; requests ask the test points themselves', { reason: error.message }),
      )
      .finally(() => {
        readAt = now();
        reading = null;
      });
    return reading;
  }

  return {
    intervalMs,
    async find(listId, zoneDigest) {
      if (readAt === null) await reread();
      else if (now() - readAt > rereadMs) void reread();
      const probe = probes.get(listId);
      if (!probe || probe.zone_digest !== zoneDigest || probe.alive === null) return null;
      if (now() - probe.probed_at.getTime() > 2 * intervalMs) return null;
      return probe;
    },
    remember(fresh) {
      fresh.forEach(keepNewer);
    },
  };
}
