import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `Webhook-Signature` header, as Stripe signs: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" with the endpoint's secret>`. The timestamp is signed so a captured delivery cannot be
 * replayed later (receivers should refuse a t older than five minutes).
 */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (and the tests): recompute and compare in constant time, within a tolerance. */
export function verifySignature(secret: string, body: string, header: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const [name = '', value] = p.split('=');
      return [name, value];
    }),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
