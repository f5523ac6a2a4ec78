import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceConfigFromEnv } from '../../config/settings.js';
import { configureLog } from '../../observability/log.js';
import { startService, type RunningService } from '../../server/start-service.js';
import { openDatabase } from '../../db/open-database.js';
import { createTestDatabase, migratedDataDir, usingPostgres, type TestDatabase } from '../support/test-database.js';

/**
 * The service's database works beside the event loop, never on it. On PostgreSQL the server does the
 * work; the embedded PGlite, which runs each statement to its end on the thread that calls it, runs in
 * a worker thread of its own (db/pglite-over-thread.ts). The service here opens its database as
 * `npm start` does: a data folder on PGlite (an already migrated one, to spare initdb), DATABASE_URL
 * on PostgreSQL.
 *
 * A statement of a few seconds' work (the sum of five million rows of generate_series) goes to the
 * service's database, and GET /healthz is asked again and again meanwhile: ten answers must come back
 * before the statement's own does. With PGlite on the main thread none came (the event loop was held
 * from the statement's start to its end, so the first /healthz was answered after it).
 */
const ROWS = 5_000_000;
const ANSWERS = 10;

let service: RunningService;
let dataDir: string | null = null;
let database: TestDatabase | null = null;

beforeAll(async () => {
  const env = { ...process.env, LOG_LEVEL: 'silent' };
  configureLog({ silent: true });
  if (usingPostgres) database = await createTestDatabase();
  else dataDir = migratedDataDir('database-off-loop-');
  const config = {
    ...serviceConfigFromEnv(env),
    publicPort: 0,
    apiPort: 0,
    databaseUrl: database?.databaseUrl,
    dataDir: dataDir ?? 'memory',
  };
  service = await startService(config, { env });
});

afterAll(async () => {
  await service?.stop();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the service's database and the event loop", () => {
  it(`answers GET /healthz ${ANSWERS} times while one statement sums ${ROWS.toLocaleString('en')} rows`, async () => {
    let settled = false;
    const heavy = sql<{ total: string }>`select sum(i)::text as total from generate_series(1, ${ROWS}::int) as i`.execute(service.services.db).finally(() => {
      settled = true;
    });
    // Turns of the event loop while the statement runs, for the message.
    let turns = 0;
    const turn = (): void => {
      turns++;
      if (!settled) setImmediate(turn);
    };
    setImmediate(turn);
    let answeredMeanwhile = 0;
    while (!settled && answeredMeanwhile < ANSWERS) {
      const response = await fetch(`${service.apiUrl}/healthz`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      if (!settled) answeredMeanwhile++;
    }
    const answeredBy = turns;
    const { rows } = await heavy;
    expect(rows[0]!.total).toBe(String((ROWS * (ROWS + 1)) / 2));
    expect(
      answeredMeanwhile,
      `GET /healthz answered ${answeredMeanwhile} times (the event loop turned ${answeredBy} times) while the database summed ${ROWS} rows: ` +
        `the statement held the event loop (db/open-database.ts opens the embedded PGlite in a worker thread: is it on the main thread again?)`,
    ).toBe(ANSWERS);
  });
});

describe.skipIf(usingPostgres)('the embedded database in its thread answers as PGlite on the main thread does', () => {
  it('reads every type the same, with the same parameters', async () => {
    const lent = await createTestDatabase();
    const here = await openDatabase({ dataDir: 'memory', pglite: (await lent.pglite())! });
    try {
      const probe = sql`select 12345678901::bigint as big, 9007199254740993::bigint as huge, 1.50::numeric as num, 2.5::float8 as float,
        '{"a": [1, {"b": null}]}'::jsonb as doc, '[1, "two"]'::json as list, '\\x00ff10'::bytea as bytes,
        '2026-11-01'::date as day, '2026-11-01T10:00:00.123Z'::timestamptz as at, '2026-11-01 10:00:00'::timestamp as local,
        array[1, 2]::int[] as ints, array['a', null]::text[] as texts, true as yes, null::text as nothing, '1 day'::interval as span,
        ${new Date('2026-01-02T03:04:05.006Z')}::timestamptz as param_at, ${Buffer.from([1, 2, 3])}::bytea as param_bytes,
        ${new Uint8Array(Buffer.from('a big buffer, of which only a few bytes are sent').subarray(2, 5))}::bytea as param_view,
        ${JSON.stringify({ x: [1] })}::jsonb as param_doc, ${12n}::bigint as param_big, ${['x', 'y']}::text[] as param_texts`;
      const inThread = await probe.execute(service.services.db);
      const onMain = await probe.execute(here.db);
      expect(inThread.rows).toEqual(onMain.rows);
      expect(inThread.rows[0]).toMatchObject({ huge: 9007199254740993n, param_at: new Date('2026-01-02T03:04:05.006Z') });
      expect((inThread.rows[0] as { param_view: Uint8Array }).param_view).toEqual(new Uint8Array(Buffer.from('big')));
    } finally {
      await here.close();
      await lent.drop();
    }
  });

  it('keeps PostgreSQL error fields, serializes transactions and counts rows through the raw door', async () => {
    const db = service.services.db;
    await sql`create temporary table off_loop_probe (id int primary key, note text)`.execute(db);
    await sql`insert into off_loop_probe values (1, 'one')`.execute(db);
    const failure = await sql`insert into off_loop_probe values (1, 'again')`.execute(db).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', constraint: 'off_loop_probe_pkey', table: 'off_loop_probe' });

    // A transaction holds the one connection: a query sent meanwhile waits for its end and sees its rows.
    let inside: () => void = () => {};
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.transaction().execute(async (tx) => {
      await sql`insert into off_loop_probe values (2, 'two')`.execute(tx);
      inside();
      await held;
      await sql`update off_loop_probe set note = 'two, committed' where id = 2`.execute(tx);
    });
    await entered;
    const after = sql<{ note: string }>`select note from off_loop_probe where id = 2`.execute(db);
    release();
    await transaction;
    expect((await after).rows).toEqual([{ note: 'two, committed' }]);

    const rolledBack = await db
      .transaction()
      .execute(async (tx) => {
        await sql`insert into off_loop_probe values (3, 'three')`.execute(tx);
        throw new Error('on purpose');
      })
      .catch((error: Error) => error.message);
    expect(rolledBack).toBe('on purpose');
    const raw = await service.database.raw.query({ text: 'update off_loop_probe set note = $1 where id <= $2', values: ['n', 5] });
    expect(raw.rowCount).toBe(2);
    await sql`drop table off_loop_probe`.execute(db);
  });
});
