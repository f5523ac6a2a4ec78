import { lockAccount } from '../db/accounts.js';
import {
  closeInterruptedWebhookAttempt,
  countWebhookAttemptsInFlight,
  failWebhookDelivery,
  findLastWebhookAttempt,
  finishWebhookAttempt,
  insertWebhookAttempt,
  lockWebhookDeliveryForSending,
  setWebhookDeliveryAttempts,
  settleWebhookDelivery,
} from '../db/webhook-deliveries.js';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TaskFunction } from './job-types.js';
import { eventBody } from '../resolvers/events/record-event.js';
import { recordWebhookDelivery } from '../observability/metrics.js';
import { log } from '../observability/log.js';
import { signatureHeader } from '../resolvers/webhooks/sign-payload.js';
import { vetEndpoint } from '../resolvers/webhooks/endpoint-address.js';

/** The most of an endpoint's answer that is read: its status is what counts; the body is drained up to this. */
export const ANSWER_BYTES = 4096;

/** The wait before retry n (1-based): base, 2×base, 4×base, ... at most an hour. */
export function webhookRetryDelayMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** (attempt - 1), 3_600_000);
}

/** An attempt claimed this long ago and not finished was cut off (its worker died): it is closed as interrupted. */
function staleAfterMs(timeoutMs: number): number {
  return timeoutMs + 30_000;
}

type Claim =
  | { kind: 'skip' }
  | { kind: 'defer' }
  | {
      kind: 'send';
      attempt: number;
      deliveryId: number;
      createdAt: Date;
      url: string;
      secret: string;
      event: { id: string; type: string; data: string; created_at: Date };
    };

/**
 * One attempt at one delivery, at least once and never twice at the same time:
 *
 * 1. Claim: in one transaction (the delivery's row locked, then the account's), the attempt's row is
 *    inserted before anything is sent. A second copy of the job (the same key queued again while the
 *    first ran, or a retry after a lease ran out) finds the attempt claimed and sends nothing. An
 *    attempt claimed longer ago than the deadline plus 30 s, still open, was cut off by a dead worker:
 *    it is closed as interrupted and the next attempt is claimed. An account with
 *    WEBHOOK_ACCOUNT_CONCURRENCY attempts in flight waits a second (the job is queued again).
 * 2. Send: one POST with a total deadline (WEBHOOK_TIMEOUT_MS: connect, headers and body), reading
 *    at most ANSWER_BYTES of the answer, signed (Webhook-Signature) and carrying the event id
 *    (Webhook-Id) so a receiver can drop an event it already handled.
 * 3. Record: the attempt's outcome, with a reason in our own words (never the socket's error text);
 *    a 2xx marks the delivery delivered; otherwise a retry is queued with backoff until
 *    WEBHOOK_RETRY_FOR_MS after the delivery was made, then it is marked failed.
 */
export const deliverWebhook: TaskFunction = async (payload: { deliveryId: number }, env) => {
  const { db, config } = env;
  const claim = await db.transaction().execute(async (trx): Promise<Claim> => {
    const row = await lockWebhookDeliveryForSending(trx, payload.deliveryId);
    if (!row || row.status !== 'pending') return { kind: 'skip' };
    if (row.deleted_at) {
      await failWebhookDelivery(trx, row.id);
      return { kind: 'skip' };
    }
    const stale = new Date(Date.now() - staleAfterMs(config.webhookTimeoutMs));
    const last = await findLastWebhookAttempt(trx, row.id);
    if (last && last.finished_at === null) {
      if (new Date(last.at) > stale) return { kind: 'skip' };
      await closeInterruptedWebhookAttempt(
        trx,
        row.id,
        last.attempt,
        'attempt_interrupted: the worker sending this attempt stopped; the endpoint may or may not have received it',
      );
    }
    // The account's row is the lock that makes "at most N in flight" hold across workers and instances.
    await lockAccount(trx, row.account_id);
    if ((await countWebhookAttemptsInFlight(trx, row.account_id, stale)) >= config.webhookAccountConcurrency) return { kind: 'defer' };
    const attempt = (last?.attempt ?? 0) + 1;
    await insertWebhookAttempt(trx, row.id, attempt, row.account_id);
    await setWebhookDeliveryAttempts(trx, row.id, attempt);
    return {
      kind: 'send',
      attempt,
      deliveryId: row.id,
      createdAt: row.created_at,
      url: row.url,
      secret: row.secret,
      event: { id: row.event_id, type: row.type, data: row.data, created_at: row.event_created },
    };
  });
  if (claim.kind === 'skip') return;
  if (claim.kind === 'defer') {
    // A fresh key: this job's own key may still be held by its row while it runs (the in-process queue).
    await env.enqueue(
      'deliver_webhook',
      { deliveryId: payload.deliveryId },
      { key: `deliver:${payload.deliveryId}:wait:${Date.now()}`, runAt: new Date(Date.now() + 1000) },
    );
    return;
  }
  const { attempt } = claim;
  const body = JSON.stringify(eventBody(claim.event));
  const started = performance.now();
  const outcome = await post(claim.url, body, claim.secret, claim.event.id, config.webhookAllowPrivate, config.webhookTimeoutMs);
  const durationMs = Math.round(performance.now() - started);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const giveUpAt = new Date(claim.createdAt).getTime() + config.webhookRetryForMs;
  const nextAt = new Date(Date.now() + webhookRetryDelayMs(attempt, config.webhookRetryBaseMs));
  const retry = !delivered && !outcome.refused && nextAt.getTime() <= giveUpAt;
  await finishWebhookAttempt(db, claim.deliveryId, attempt, {
    status_code: outcome.status,
    error: outcome.error,
    duration_ms: durationMs,
    finished_at: new Date(),
  });
  await settleWebhookDelivery(db, claim.deliveryId, attempt, {
    status: delivered ? 'delivered' : retry ? 'pending' : 'failed',
    delivered_at: delivered ? new Date() : null,
    next_attempt_at: retry ? nextAt : null,
  });
  recordWebhookDelivery(delivered ? 'delivered' : outcome.refused ? 'refused' : retry ? 'retry' : 'failed');
  if (retry) await env.enqueue('deliver_webhook', { deliveryId: claim.deliveryId }, { key: `deliver:${claim.deliveryId}:${attempt + 1}`, runAt: nextAt });
};

interface PostOutcome {
  status: number | null;
  /** `code: sentence`, in our words: what the customer sees on the attempt. */
  error: string | null;
  refused: boolean;
}

/** A socket or TLS error as the customer sees it: our own code and sentence, nothing of the address or the system's text. */
export function publicReason(error: Error & { code?: string }): string {
  const code = error.code ?? '';
  if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code) || /certificate|ssl|tls/i.test(error.message))
    return "tls_failed: the endpoint's TLS certificate or handshake was not accepted; serve a certificate from a public authority for its host name";
  if (['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ECONNABORTED', 'EAI_AGAIN', 'ENOTFOUND'].includes(code))
    return 'connection_failed: the endpoint could not be reached or closed the connection; check that it is up and accepts HTTPS on port 443';
  return 'request_failed: the request to the endpoint failed before it answered';
}

async function post(rawUrl: string, body: string, secret: string, eventId: string, allowPrivate: boolean, timeoutMs: number): Promise<PostOutcome> {
  const vetted = await vetEndpoint(rawUrl, allowPrivate);
  if (!vetted.ok) {
    log('warn', 'webhook endpoint refused at delivery', { reason: vetted.detail.slice(0, 200) });
    return {
      status: null,
      error:
        'endpoint_refused: the endpoint is no longer allowed (an https:// address on port 443 whose host resolves to public addresses only); change its url',
      refused: true,
    };
  }
  const { url, address, family } = vetted;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const seconds = timeoutMs / 1000;
  return new Promise((resolve) => {
    let status: number | null = null;
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      resolve(outcome);
    };
    const req = request(
      url,
      {
        method: 'POST',
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
        status = res.statusCode ?? null;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status is what counts, and an endless answer must not hold the slot.
          if (read >= ANSWER_BYTES) settle({ status, error: null, refused: false });
        });
        res.on('end', () => settle({ status, error: null, refused: false }));
        res.on('error', () => settle({ status, error: null, refused: false }));
      },
    );
    // One deadline for the whole attempt: connect, headers and body (a timeout on the socket would be
    // idle-only, and a receiver sending a byte every few seconds would never meet it).
    const deadline = setTimeout(() => {
      settle(
        status === null
          ? { status: null, error: `timeout: the endpoint did not answer within ${seconds} s`, refused: false }
          : { status, error: `answer_cut: the endpoint's answer was still arriving after ${seconds} s; only its status was used`, refused: false },
      );
    }, timeoutMs);
    req.on('error', (error: Error & { code?: string }) => {
      if (settled) return;
      log('warn', 'webhook attempt failed', { endpoint_host: url.hostname, code: error.code, reason: error.message.slice(0, 200) });
      settle({ status: null, error: publicReason(error), refused: false });
    });
    req.end(body);
  });
}
