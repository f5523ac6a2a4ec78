import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import { createApiKey } from '../../resolvers/auth/api-keys.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { inCi } from '../support/ci.js';

const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379/0';
/**
 * Under CI (.ci/run starts redis-server), or when TEST_REDIS_URL or REDIS_URL names one, a Redis is
 * required: without one these tests fail. Elsewhere (a laptop without Redis) they skip, saying so.
 */
const required = inCi || Boolean(process.env.TEST_REDIS_URL || process.env.REDIS_URL);

/** Whether a Redis answers there. */
async function redisAnswers(): Promise<boolean> {
  const url = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port || 6379) });
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const available = await redisAnswers();
const prefix = `svc-test-${randomBytes(4).toString('hex')}`;

describe.skipIf(!available && !required)(
  `rate-limit counters in Redis (REDIS_URL)${available || required ? '' : ' (skipped: no Redis answers at ' + REDIS_URL + ')'}`,
  () => {
    let one: TestService;
    let two: TestService;
    beforeAll(async () => {
      if (!available) throw new Error(`No Redis answers at ${REDIS_URL}, and this run requires one (CI, TEST_REDIS_URL or REDIS_URL): start redis-server.`);
      one = await startTestService({ env: { REDIS_URL, REDIS_KEY_PREFIX: prefix } });
      // A second instance on its own database but the same Redis: the allowance is per key id there too,
      // so both instances count the same key id against one budget.
      two = await startTestService({ env: { REDIS_URL, REDIS_KEY_PREFIX: prefix } });
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    });

    it('counts reads in Redis: the header counts down and the 241st read in a minute is a 429', async () => {
      const { key } = await createApiKey(one.services.db, one.demo.accountId, ['read']);
      const first = await one.api('/v1/payment-method', { key });
      expect(first.headers.get('x-ratelimit-remaining')).toBe('239');
      const redis = new Redis(REDIS_URL);
      try {
        expect((await redis.keys(`${prefix}:read:*`)).length).toBeGreaterThan(0);
      } finally {
        await redis.quit();
      }
      for (let i = 0; i < 239; i += 1) expect((await one.api('/v1/payment-method', { key })).status).toBe(200);
      const over = await one.api('/v1/payment-method', { key });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('two instances sharing one Redis share one allowance', async () => {
      // In production both instances read one database, so a key has one id everywhere. Here each
      // instance has its own database: make keys on the second until one has the first key's id.
      const a = await createApiKey(one.services.db, one.demo.accountId, ['read']);
      let b = await createApiKey(two.services.db, two.demo.accountId, ['read']);
      while (b.keyId < a.keyId) b = await createApiKey(two.services.db, two.demo.accountId, ['read']);
      expect(b.keyId).toBe(a.keyId);
      const fromOne = await one.api('/v1/payment-method', { key: a.key });
      const fromTwo = await two.api('/v1/payment-method', { key: b.key });
      expect(fromOne.headers.get('x-ratelimit-remaining')).toBe('239');
      expect(fromTwo.headers.get('x-ratelimit-remaining')).toBe('238');
    });
  },
);
