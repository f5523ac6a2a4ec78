import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TaskFunction } from './job-types.js';
import { eventBody } from '../resolvers/events/record-event.js';
import { recordWebhookDelivery } from '../observability/metrics.js';
import { signatureHeader } from '../resolvers/webhooks/sign-payload.js';
import { vetEndpoint } from '../resolvers/webhooks/endpoint-address.js';

const TIMEOUT_MS = 10_000;

/** The wait before retry n (1-based): base, 2×base, 4×base, ... at most an hour. */
export function webhookRetryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 3_600_000);
}

/**
 * One attempt at one delivery. A 2xx marks it delivered; anything else (or no answer) is recorded as
 * an attempt and a retry is queued with backoff until WEBHOOK_RETRY_FOR_MS (a day) after the event;
 * then the delivery is marked failed. The event id is in the body and the Webhook-Id header, so a
 * receiver that sees a delivery twice (a retry after an answer we never got) can drop the second.
 */
export const deliverWebhook: TaskFunction = async (payload: { deliveryId: number }, env) => {
  const { db, config } = env;
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .select([
      'd.id',
      'd.status',
      'd.attempts',
      'd.created_at',
      'e.url',
      'e.secret',
      'e.deleted_at',
      'ev.id as event_id',
      'ev.type',
      'ev.data',
      'ev.created_at as event_created',
    ])
    .where('d.id', '=', payload.deliveryId)
    .executeTakeFirst();
  if (!row || row.status !== 'pending') return;
  if (row.deleted_at) {
    await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null }).where('id', '=', row.id).execute();
    return;
  }
  const attempt = row.attempts + 1;
  const body = JSON.stringify(eventBody({ id: row.event_id, type: row.type, created_at: row.event_created, data: row.data }));
  const started = performance.now();
  const outcome = await post(row.url, body, row.secret, row.event_id, config.webhookAllowPrivate);
  const durationMs = Math.round(performance.now() - started);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const giveUpAt = new Date(row.created_at).getTime() + config.webhookRetryForMs;
  const nextAt = new Date(Date.now() + webhookRetryDelayMs(attempt, config.webhookRetryBaseMs));
  const retry = !delivered && !outcome.refused && nextAt.getTime() <= giveUpAt;
  // The attempt's key makes a re-run of this same attempt (a crash before its job finished) record it once.
  const recorded = await db
    .insertInto('webhook_attempts')
    .values({ delivery_id: row.id, attempt, status_code: outcome.status, error: outcome.error, duration_ms: durationMs })
    .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
    .returning('attempt')
    .executeTakeFirst();
  if (!recorded) return;
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt,
      status: delivered ? 'delivered' : retry ? 'pending' : 'failed',
      delivered_at: delivered ? new Date() : null,
      next_attempt_at: retry ? nextAt : null,
    })
    .where('id', '=', row.id)
    .where('attempts', '=', row.attempts)
    .execute();
  recordWebhookDelivery(delivered ? 'delivered' : outcome.refused ? 'refused' : retry ? 'retry' : 'failed');
  if (retry) await env.enqueue('deliver_webhook', { deliveryId: row.id }, { key: `deliver:${row.id}:${attempt + 1}`, runAt: nextAt });
};

interface PostOutcome {
  status: number | null;
  error: string | null;
  refused: boolean;
}

async function post(rawUrl: string, body: string, secret: string, eventId: string, allowPrivate: boolean): Promise<PostOutcome> {
  const vetted = await vetEndpoint(rawUrl, allowPrivate);
  if (!vetted.ok) return { status: null, error: vetted.detail, refused: true };
  const { url, address, family } = vetted;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        timeout: TIMEOUT_MS,
        // Connect to the vetted address only (no second resolution that could answer differently).
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (options?.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        }) as never,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'deliverability-service-webhooks/1',
          'webhook-id': eventId,
          'webhook-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? null, error: null, refused: false }));
        res.on('error', () => resolve({ status: res.statusCode ?? null, error: 'the answer was cut off', refused: false }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve({ status: null, error: error.message.slice(0, 300), refused: false }));
    req.end(body);
  });
}
