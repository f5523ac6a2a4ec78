import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { luhnValid } from '../../clients/payments/sandbox-test-cards.js';

/**
 * A stateful local stand-in for the Stripe API endpoints StripeProcessor uses, speaking Stripe's wire
 * protocol so the official SDK can be pointed at it (STRIPE_API_BASE): form-encoded bodies with
 * bracket notation, JSON objects shaped like Stripe's, Stripe-style errors, and `Idempotency-Key`
 * honoured as Stripe does (replay of the stored answer with `Idempotent-Replayed: true`; a 400
 * idempotency_error for the same key with other parameters; a 409 while the first is still running).
 *
 * Test controls live under /__test/ (JSON bodies) and as methods: prices and promotion codes, saving
 * a card for a customer, completing a Checkout session, faults for the next N requests, charges.
 *
 * Cards follow Stripe's test numbers: 4242424242424242 charges, 4000000000000341 attaches but is
 * declined when charged; any other Luhn-valid number charges.
 */

export type FaultMode = 'hang' | 'refuse' | 'hang_after_processing' | 'server_error';

export interface FakeCharge {
  readonly id: string;
  readonly customer: string;
  readonly amount: number;
  readonly currency: string;
  readonly invoice: string;
  readonly payment_method: string;
  readonly idempotency_key: string | null;
}

export interface FakeDecline {
  readonly customer: string;
  readonly amount: number;
  readonly payment_method: string;
}

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | null;
  readonly params: Record<string, unknown>;
}

export interface FakePromotionCodeInput {
  readonly code: string;
  readonly percent_off?: number;
  readonly amount_off?: number;
  readonly currency?: string;
  readonly duration?: 'once' | 'repeating' | 'forever';
  readonly duration_in_months?: number;
  readonly active?: boolean;
  /** Unix seconds. */
  readonly expires_at?: number;
  readonly max_redemptions?: number;
}

export interface FakeStripe {
  /** http://127.0.0.1:PORT, for STRIPE_API_BASE. */
  readonly url: string;
  readonly port: number;
  /** The only key the fake accepts. */
  readonly secretKey: string;
  readonly charges: readonly FakeCharge[];
  readonly declines: readonly FakeDecline[];
  readonly requests: readonly FakeRequest[];
  addPrice(price: { id?: string; unit_amount: number; currency?: string; interval?: string }): Record<string, unknown>;
  addPromotionCode(input: FakePromotionCodeInput): Record<string, unknown>;
  /** Creates a card payment method and attaches it, as a completed Checkout setup session would. */
  saveCard(customerId: string, cardNumber: string, options?: { makeDefault?: boolean }): Record<string, unknown>;
  /** The next `count` /v1 requests (only those matching `match`, when given) fail this way. */
  failNext(count: number, mode: FaultMode, match?: FaultMatch): void;
  subscriptions(): Record<string, unknown>[];
  /** Drops all hanging connections and closes the server. */
  close(): Promise<void>;
}

export interface FaultMatch {
  readonly method?: string;
  readonly path?: string;
  /** Let this many matching requests through before failing. */
  readonly skip?: number;
}

export interface FakeStripeOptions {
  readonly secretKey?: string;
  /** Fixed port (0: any free one). */
  readonly port?: number;
}

type Obj = Record<string, unknown>;

class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; decline_code?: string; param?: string; message: string },
  ) {
    super(body.message);
  }
}

const DECLINING_CARD = '4000000000000341';

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? 'sk_test_fake_0123456789';
  const customers = new Map<string, Obj>();
  const paymentMethods = new Map<string, Obj & { _declines: boolean }>();
  const sessions = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const coupons = new Map<string, Obj>();
  const promotionCodes = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const charges: FakeCharge[] = [];
  const declines: FakeDecline[] = [];
  const requests: FakeRequest[] = [];
  const faults: { mode: FaultMode; match: FaultMatch; skip: number }[] = [];
  type Stored = { fingerprint: string; status: number; body: unknown } | { fingerprint: string; inFlight: true };
  const idempotency = new Map<string, Stored>();
  const sockets = new Set<Socket>();
  let url = '';

  const now = (): number => Math.floor(Date.now() / 1000);
  const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
  const list = (data: Obj[], path: string, hasMore = false): Obj => ({ object: 'list', data, has_more: hasMore, url: path });

  // ---- objects -------------------------------------------------------------------------------

  function addPrice(input: { id?: string; unit_amount: number; currency?: string; interval?: string }): Obj {
    const price: Obj = {
      id: input.id ?? id('price'),
      object: 'price',
      active: true,
      currency: input.currency ?? 'usd',
      unit_amount: input.unit_amount,
      type: 'recurring',
      recurring: { interval: input.interval ?? 'month', interval_count: 1, usage_type: 'licensed' },
      product: id('prod'),
      livemode: false,
      metadata: {},
      created: now(),
    };
    prices.set(price.id as string, price);
    return price;
  }

  function addPromotionCode(input: FakePromotionCodeInput): Obj {
    const coupon: Obj = {
      id: id('coupon'),
      object: 'coupon',
      percent_off: input.percent_off ?? null,
      amount_off: input.amount_off ?? null,
      currency: input.amount_off !== undefined ? (input.currency ?? 'usd') : null,
      duration: input.duration ?? 'once',
      duration_in_months: input.duration_in_months ?? null,
      valid: true,
      livemode: false,
      metadata: {},
      created: now(),
    };
    coupons.set(coupon.id as string, coupon);
    const promo: Obj = {
      id: id('promo'),
      object: 'promotion_code',
      code: input.code,
      active: input.active ?? true,
      customer: null,
      customer_account: null,
      expires_at: input.expires_at ?? null,
      max_redemptions: input.max_redemptions ?? null,
      times_redeemed: 0,
      promotion: { type: 'coupon', coupon: coupon.id },
      restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
      livemode: false,
      metadata: {},
      created: now(),
    };
    promotionCodes.set(promo.id as string, promo);
    return promo;
  }

  function createPaymentMethod(cardNumber: string, expMonth = 12, expYear = new Date().getUTCFullYear() + 3): Obj & { _declines: boolean } {
    const digits = cardNumber.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
      throw new StripeHttpError(402, { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.', param: 'card[number]' });
    }
    const pm: Obj & { _declines: boolean } = {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      customer: null,
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: brandOf(digits),
        display_brand: brandOf(digits),
        last4: digits.slice(-4),
        exp_month: expMonth,
        exp_year: expYear,
        country: 'US',
        funding: 'credit',
        fingerprint: randomBytes(8).toString('hex'),
      },
      livemode: false,
      metadata: {},
      created: now(),
      _declines: digits === DECLINING_CARD,
    };
    paymentMethods.set(pm.id as string, pm);
    return pm;
  }

  function attach(pmId: string, customerId: string): Obj {
    const pm = paymentMethods.get(pmId);
    if (!pm) throw missing('payment_method', pmId);
    if (!customers.get(customerId) || customers.get(customerId)?.deleted) throw missing('customer', customerId, 'customer');
    pm.customer = customerId;
    return pm;
  }

  function saveCard(customerId: string, cardNumber: string, opts: { makeDefault?: boolean } = {}): Obj {
    const pm = createPaymentMethod(cardNumber);
    attach(pm.id as string, customerId);
    if (opts.makeDefault) {
      const customer = customers.get(customerId) as Obj;
      (customer.invoice_settings as Obj).default_payment_method = pm.id;
    }
    return publicView(pm);
  }

  function expandSubscription(sub: Obj, expand: readonly string[], prefix = ''): Obj {
    const copy: Obj = { ...sub };
    if (expand.includes(`${prefix}latest_invoice`) && typeof copy.latest_invoice === 'string') {
      copy.latest_invoice = invoices.get(copy.latest_invoice) ?? copy.latest_invoice;
    }
    return copy;
  }

  function createSubscription(params: Obj, idempotencyKey: string | null): Obj {
    const customerId = str(params.customer, 'customer');
    const customer = customers.get(customerId);
    if (!customer || customer.deleted) throw missing('customer', customerId, 'customer');
    const items = arr(params.items);
    const item = (items[0] ?? {}) as Obj;
    const priceId = str(item.price, 'items[0][price]');
    const price = prices.get(priceId);
    if (!price) throw missing('price', priceId, 'items[0][price]');
    const quantity = item.quantity === undefined ? 1 : Number(item.quantity);
    if (!Number.isInteger(quantity) || quantity < 1) throw invalid('items[0][quantity]', 'Invalid positive integer');
    const behaviour = (params.payment_behavior as string | undefined) ?? 'allow_incomplete';

    let discount: { coupon: Obj; promo: Obj | null } | null = null;
    const d = (arr(params.discounts)[0] ?? null) as Obj | null;
    if (d?.promotion_code) {
      const promo = promotionCodes.get(String(d.promotion_code));
      if (!promo) throw missing('promotion_code', String(d.promotion_code), 'discounts[0][promotion_code]');
      const expired = promo.expires_at !== null && Number(promo.expires_at) <= now();
      const usedUp = promo.max_redemptions !== null && Number(promo.times_redeemed) >= Number(promo.max_redemptions);
      if (!promo.active || expired || usedUp) {
        throw invalid(
          'discounts[0][promotion_code]',
          `This promotion code cannot be redeemed because it is ${expired ? 'expired' : usedUp ? 'fully redeemed' : 'inactive'}.`,
        );
      }
      discount = { coupon: coupons.get((promo.promotion as Obj).coupon as string) as Obj, promo };
    } else if (d?.coupon) {
      const coupon = coupons.get(String(d.coupon));
      if (!coupon) throw missing('coupon', String(d.coupon), 'discounts[0][coupon]');
      discount = { coupon, promo: null };
    }

    const subtotal = Number(price.unit_amount) * quantity;
    let amount = subtotal;
    if (discount?.coupon.percent_off != null) amount = Math.round((subtotal * (100 - Number(discount.coupon.percent_off))) / 100);
    else if (discount?.coupon.amount_off != null) amount = Math.max(0, subtotal - Number(discount.coupon.amount_off));

    const pmId = (params.default_payment_method as string | undefined) ?? ((customer.invoice_settings as Obj).default_payment_method as string | null);
    const pm = pmId ? paymentMethods.get(pmId) : undefined;
    if (pmId && (!pm || pm.customer !== customerId)) {
      throw invalid('default_payment_method', `The payment method ${pmId} does not belong to customer ${customerId}.`, 'resource_missing');
    }
    if (amount > 0 && !pm) {
      throw invalid(
        null,
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
        'resource_missing',
      );
    }
    if (amount > 0 && pm?._declines) {
      declines.push({ customer: customerId, amount, payment_method: pm.id as string });
      if (behaviour === 'error_if_incomplete') {
        throw new StripeHttpError(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
      }
    }

    const created = now();
    const periodEnd = created + 30 * 24 * 3600;
    const subId = id('sub');
    const invoiceId = id('in');
    const paid = !(amount > 0 && pm?._declines);
    const invoice: Obj = {
      id: invoiceId,
      object: 'invoice',
      customer: customerId,
      number: `FAKE-${String(invoices.size + 1).padStart(4, '0')}`,
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      subtotal,
      total: amount,
      currency: price.currency,
      status: paid ? 'paid' : 'open',
      attempted: amount > 0,
      attempt_count: amount > 0 ? 1 : 0,
      billing_reason: 'subscription_create',
      collection_method: 'charge_automatically',
      created,
      due_date: null,
      period_start: created,
      period_end: created,
      next_payment_attempt: null,
      status_transitions: { finalized_at: created, paid_at: paid ? created : null, voided_at: null, marked_uncollectible_at: null },
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subId, metadata: params.metadata ?? {} } },
      hosted_invoice_url: `${url}/__hosted/invoices/${invoiceId}`,
      livemode: false,
      metadata: {},
    };
    invoices.set(invoiceId, invoice);
    if (paid && amount > 0) {
      charges.push({
        id: id('ch'),
        customer: customerId,
        amount,
        currency: price.currency as string,
        invoice: invoiceId,
        payment_method: pm?.id as string,
        idempotency_key: idempotencyKey,
      });
    }
    if (discount?.promo) discount.promo.times_redeemed = Number(discount.promo.times_redeemed) + 1;
    const subscription: Obj = {
      id: subId,
      object: 'subscription',
      customer: customerId,
      status: paid ? 'active' : 'incomplete',
      collection_method: 'charge_automatically',
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      created,
      start_date: created,
      billing_cycle_anchor: created,
      currency: price.currency,
      default_payment_method: pm?.id ?? null,
      discounts: discount ? [id('di')] : [],
      items: list(
        [
          {
            id: id('si'),
            object: 'subscription_item',
            price,
            quantity,
            subscription: subId,
            current_period_start: created,
            current_period_end: periodEnd,
            created,
            metadata: {},
          },
        ],
        `/v1/subscription_items?subscription=${subId}`,
      ),
      latest_invoice: invoiceId,
      metadata: params.metadata ?? {},
      livemode: false,
    };
    subscriptions.set(subId, subscription);
    return expandSubscription(subscription, expandList(params));
  }

  // ---- routing -------------------------------------------------------------------------------

  type Handler = (params: Obj, match: RegExpMatchArray, idempotencyKey: string | null) => { status?: number; body: unknown };
  const routes: { method: string; pattern: RegExp; handler: Handler }[] = [];
  const route = (method: string, pattern: RegExp, handler: Handler): void => void routes.push({ method, pattern, handler });

  route('POST', /^\/v1\/customers$/, (p) => {
    const customer: Obj = {
      id: id('cus'),
      object: 'customer',
      name: p.name ?? null,
      email: p.email ?? null,
      metadata: p.metadata ?? {},
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
      livemode: false,
      created: now(),
    };
    customers.set(customer.id as string, customer);
    return { body: customer };
  });
  route('GET', /^\/v1\/customers\/([^/]+)$/, (_p, m) => {
    const customer = customers.get(m[1] as string);
    if (!customer) throw missing('customer', m[1] as string, 'id');
    return { body: customer.deleted ? { id: customer.id, object: 'customer', deleted: true } : customer };
  });
  route('POST', /^\/v1\/customers\/([^/]+)$/, (p, m) => {
    const customer = customers.get(m[1] as string);
    if (!customer || customer.deleted) throw missing('customer', m[1] as string, 'id');
    if (p.name !== undefined) customer.name = p.name;
    if (p.metadata !== undefined) customer.metadata = { ...(customer.metadata as Obj), ...(p.metadata as Obj) };
    const settings = p.invoice_settings as Obj | undefined;
    if (settings?.default_payment_method !== undefined) {
      const pmId = String(settings.default_payment_method);
      if (paymentMethods.get(pmId)?.customer !== customer.id) throw missing('payment_method', pmId, 'invoice_settings[default_payment_method]');
      (customer.invoice_settings as Obj).default_payment_method = pmId;
    }
    return { body: customer };
  });
  route('DELETE', /^\/v1\/customers\/([^/]+)$/, (_p, m) => {
    const customer = customers.get(m[1] as string);
    if (!customer || customer.deleted) throw missing('customer', m[1] as string, 'id');
    customer.deleted = true;
    return { body: { id: customer.id, object: 'customer', deleted: true } };
  });

  route('POST', /^\/v1\/checkout\/sessions$/, (p) => {
    if (p.mode !== 'setup') throw invalid('mode', 'The fake only supports mode=setup.');
    const customerId = str(p.customer, 'customer');
    if (!customers.get(customerId) || customers.get(customerId)?.deleted) throw missing('customer', customerId, 'customer');
    if (p.currency === undefined) throw invalid('currency', 'currency is required in setup mode when payment_method_types is not passed.', 'parameter_missing');
    const successUrl = str(p.success_url, 'success_url');
    const sessionId = id('cs_test');
    const session: Obj = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      payment_status: 'no_payment_required',
      customer: customerId,
      currency: p.currency,
      success_url: successUrl,
      cancel_url: p.cancel_url ?? null,
      url: `${url}/__test/checkout/${sessionId}`,
      expires_at: now() + 24 * 3600,
      setup_intent: null,
      metadata: p.metadata ?? {},
      livemode: false,
      created: now(),
    };
    sessions.set(sessionId, session);
    return { body: session };
  });

  route('GET', /^\/v1\/payment_methods$/, (p) => {
    const customerId = p.customer === undefined ? null : String(p.customer);
    if (customerId && !customers.get(customerId)) throw missing('customer', customerId, 'customer');
    const data = [...paymentMethods.values()]
      .filter((pm) => pm.customer === customerId && (p.type === undefined || pm.type === p.type))
      .reverse() // newest first, as Stripe lists
      .map(publicView);
    const limit = p.limit === undefined ? 10 : Number(p.limit);
    return { body: list(data.slice(0, limit), '/v1/payment_methods', data.length > limit) };
  });
  route('POST', /^\/v1\/payment_methods\/([^/]+)\/attach$/, (p, m) => ({ body: publicView(attach(m[1] as string, str(p.customer, 'customer'))) }));

  route('POST', /^\/v1\/subscriptions$/, (p, _m, key) => ({ body: createSubscription(p, key) }));
  route('GET', /^\/v1\/subscriptions$/, (p) => {
    const status = (p.status as string | undefined) ?? 'active_and_others';
    let data = [...subscriptions.values()]
      .filter((s) => p.customer === undefined || s.customer === p.customer)
      .filter((s) => (status === 'all' ? true : status === 'active_and_others' ? s.status !== 'canceled' : s.status === status))
      .reverse();
    if (p.starting_after !== undefined) {
      const at = data.findIndex((s) => s.id === p.starting_after);
      data = at < 0 ? [] : data.slice(at + 1);
    }
    const limit = p.limit === undefined ? 10 : Number(p.limit);
    const expand = expandList(p);
    return {
      body: list(
        data.slice(0, limit).map((s) => expandSubscription(s, expand, 'data.')),
        '/v1/subscriptions',
        data.length > limit,
      ),
    };
  });
  route('GET', /^\/v1\/subscriptions\/([^/]+)$/, (p, m) => {
    const sub = subscriptions.get(m[1] as string);
    if (!sub) throw missing('subscription', m[1] as string, 'id');
    return { body: expandSubscription(sub, expandList(p)) };
  });
  route('DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (p, m) => {
    const sub = subscriptions.get(m[1] as string);
    if (!sub) throw missing('subscription', m[1] as string, 'id');
    if (sub.status !== 'canceled') {
      sub.status = 'canceled';
      sub.canceled_at = now();
      sub.ended_at = now();
    }
    return { body: expandSubscription(sub, expandList(p)) };
  });

  route('GET', /^\/v1\/promotion_codes$/, (p) => {
    const data = [...promotionCodes.values()]
      .filter((c) => p.code === undefined || String(c.code).toLowerCase() === String(p.code).toLowerCase())
      .filter((c) => p.active === undefined || String(c.active) === String(p.active))
      .reverse();
    const limit = p.limit === undefined ? 10 : Number(p.limit);
    return { body: list(data.slice(0, limit), '/v1/promotion_codes', data.length > limit) };
  });
  route('GET', /^\/v1\/promotion_codes\/([^/]+)$/, (_p, m) => {
    const promo = promotionCodes.get(m[1] as string);
    if (!promo) throw missing('promotion_code', m[1] as string, 'id');
    return { body: promo };
  });
  route('GET', /^\/v1\/invoices\/([^/]+)$/, (_p, m) => {
    const invoice = invoices.get(m[1] as string);
    if (!invoice) throw missing('invoice', m[1] as string, 'id');
    return { body: invoice };
  });

  // invoices.pay: charges the given card (else the customer's default, else its newest), as Stripe does.
  route('POST', /^\/v1\/invoices\/([^/]+)\/pay$/, (p, _m, key) => {
    const invoice = invoices.get(_m[1] as string);
    if (!invoice) throw missing('invoice', _m[1] as string, 'id');
    if (invoice.status === 'paid') throw invalid(null, 'Invoice is already paid', 'invoice_already_paid');
    const customerId = invoice.customer as string;
    const customer = customers.get(customerId) as Obj;
    const pmId =
      (p.payment_method as string | undefined) ??
      ((customer.invoice_settings as Obj).default_payment_method as string | null) ??
      [...paymentMethods.values()].filter((pm) => pm.customer === customerId).pop()?.id;
    const pm = pmId ? paymentMethods.get(pmId as string) : undefined;
    if (!pm) throw invalid(null, 'This customer has no attached payment source or default payment method.', 'resource_missing');
    const amount = Number(invoice.amount_remaining);
    invoice.attempt_count = Number(invoice.attempt_count) + 1;
    invoice.attempted = true;
    if (pm._declines) {
      declines.push({ customer: customerId, amount, payment_method: pm.id as string });
      throw new StripeHttpError(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
    }
    invoice.status = 'paid';
    invoice.amount_paid = Number(invoice.amount_paid) + amount;
    invoice.amount_remaining = 0;
    (invoice.status_transitions as Obj).paid_at = now();
    charges.push({
      id: id('ch'),
      customer: customerId,
      amount,
      currency: invoice.currency as string,
      invoice: invoice.id as string,
      payment_method: pm.id as string,
      idempotency_key: key,
    });
    return { body: invoice };
  });

  // ---- test controls (not Stripe endpoints) ----------------------------------------------------

  // An open invoice whose automatic payment failed (a renewal on a card that was declined).
  route('POST', /^\/__test\/invoices$/, (p) => {
    const customerId = str(p.customer, 'customer');
    if (!customers.get(customerId)) throw missing('customer', customerId, 'customer');
    const created = now() - 3600;
    const invoiceId = id('in');
    const amount = Number(p.amount);
    const invoice: Obj = {
      id: invoiceId,
      object: 'invoice',
      customer: customerId,
      number: `FAKE-${String(invoices.size + 1).padStart(4, '0')}`,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      subtotal: amount,
      total: amount,
      currency: String(p.currency ?? 'usd'),
      status: 'open',
      attempted: true,
      attempt_count: 1,
      billing_reason: 'subscription_cycle',
      collection_method: 'charge_automatically',
      created,
      due_date: null,
      period_start: created,
      period_end: created,
      next_payment_attempt: null,
      status_transitions: { finalized_at: created, paid_at: null, voided_at: null, marked_uncollectible_at: null },
      parent: null,
      hosted_invoice_url: `${url}/__hosted/invoices/${invoiceId}`,
      livemode: false,
      metadata: {},
    };
    invoices.set(invoiceId, invoice);
    return { body: invoice };
  });

  route('POST', /^\/__test\/prices$/, (p) => ({ body: addPrice(p as never) }));
  route('POST', /^\/__test\/promotion_codes$/, (p) => ({ body: addPromotionCode(p as never) }));
  route('POST', /^\/__test\/customers\/([^/]+)\/cards$/, (p, m) => {
    if (!customers.get(m[1] as string)) throw missing('customer', m[1] as string, 'id');
    return { body: saveCard(m[1] as string, str(p.number, 'number'), { makeDefault: p.make_default === true }) };
  });
  route('POST', /^\/__test\/checkout\/sessions\/([^/]+)\/complete$/, (p, m) => {
    const session = sessions.get(m[1] as string);
    if (!session) throw missing('checkout.session', m[1] as string, 'id');
    if (session.status !== 'open') throw invalid(null, 'This Checkout Session is no longer open.');
    saveCard(session.customer as string, str(p.card_number, 'card_number'));
    session.status = 'complete';
    session.setup_intent = id('seti');
    return { body: session };
  });
  route('POST', /^\/__test\/faults$/, (p) => {
    const match: FaultMatch = { ...(p.method ? { method: String(p.method) } : {}), ...(p.path ? { path: String(p.path) } : {}) };
    for (let i = 0; i < Number(p.count ?? 1); i += 1) faults.push({ mode: p.mode as FaultMode, match, skip: Number(p.skip ?? 0) });
    return { body: { queued: faults.length } };
  });
  route('GET', /^\/__test\/charges$/, () => ({ body: { count: charges.length, data: charges } }));

  // ---- HTTP ------------------------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const target = new URL(req.url ?? '/', 'http://fake');
    const path = target.pathname;
    const method = req.method ?? 'GET';
    const isTest = path.startsWith('/__test/');
    const params: Obj = isTest
      ? raw
        ? (JSON.parse(raw) as Obj)
        : {}
      : decodeForm(method === 'GET' || method === 'DELETE' ? target.search.slice(1) + (raw ? `&${raw}` : '') : raw);
    const idempotencyKey = header(req, 'idempotency-key');
    requests.push({ method, path, idempotencyKey, params });

    const send = (status: number, body: unknown, extra: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...extra });
      res.end(JSON.stringify(body));
    };

    let fault: FaultMode | undefined;
    if (!isTest) {
      const at = faults.findIndex((f) => (!f.match.method || f.match.method === method) && (!f.match.path || f.match.path === path));
      const entry = at < 0 ? undefined : faults[at];
      if (entry && entry.skip > 0) entry.skip -= 1;
      else if (entry) fault = faults.splice(at, 1)[0]?.mode;
      if (fault === 'refuse') return void req.socket.destroy();
      if (fault === 'hang') return; // never answered; closed by the client's timeout or close()
      if (fault === 'server_error') return send(500, { error: { type: 'api_error', message: 'An unknown error occurred (fake).' } });
      if (header(req, 'authorization') !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided (fake Stripe).' } });
      }
    }

    const found = routes.find((r) => r.method === method && r.pattern.test(path));
    if (!found) {
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } });
    }

    // Stripe's idempotency: POSTs only, keyed per API key; results are stored once the request has
    // started executing (success or card error), never for a request refused at validation.
    const idempotent = method === 'POST' && idempotencyKey !== null && !isTest;
    const fingerprint = `${method} ${path} ${canonical(params)}`;
    if (idempotent) {
      const stored = idempotency.get(idempotencyKey);
      if (stored && 'inFlight' in stored) {
        return send(409, {
          error: {
            type: 'idempotency_error',
            message: 'There is currently another in-progress request using this Stripe-Idempotency-Key. Please try again later.',
          },
        });
      }
      if (stored && stored.fingerprint !== fingerprint) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
      }
      if (stored) {
        if (fault === 'hang_after_processing') return;
        return send(stored.status, stored.body, { 'idempotent-replayed': 'true', 'original-request': 'req_fake' });
      }
      idempotency.set(idempotencyKey, { fingerprint, inFlight: true });
    }

    let status = 200;
    let body: unknown;
    try {
      const result = found.handler(params, path.match(found.pattern) as RegExpMatchArray, idempotencyKey);
      status = result.status ?? 200;
      body = result.body;
    } catch (error) {
      if (!(error instanceof StripeHttpError)) {
        if (idempotent) idempotency.delete(idempotencyKey);
        return send(500, { error: { type: 'api_error', message: String(error) } });
      }
      status = error.status;
      body = { error: { ...error.body, ...(error.body.type === 'card_error' ? { doc_url: 'https://stripe.com/docs/error-codes/card-declined' } : {}) } };
    }
    if (idempotent) {
      if (status < 400 || status === 402) idempotency.set(idempotencyKey, { fingerprint, status, body });
      else idempotency.delete(idempotencyKey);
    }
    if (fault === 'hang_after_processing') return; // the work is done, the answer never arrives
    send(status, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    secretKey,
    charges,
    declines,
    requests,
    addPrice,
    addPromotionCode,
    saveCard,
    failNext(count, mode, match = {}) {
      for (let i = 0; i < count; i += 1) faults.push({ mode, match, skip: match.skip ?? 0 });
    },
    subscriptions: () => [...subscriptions.values()],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  // ---- helpers needing closure state -------------------------------------------------------------

  function publicView(pm: Obj): Obj {
    const { _declines: _ignored, ...rest } = pm;
    return rest;
  }
}

function missing(kind: string, value: string, param?: string): StripeHttpError {
  return new StripeHttpError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    ...(param ? { param } : {}),
    message: `No such ${kind}: '${value}'`,
  });
}

function invalid(param: string | null, message: string, code = 'parameter_invalid'): StripeHttpError {
  return new StripeHttpError(400, { type: 'invalid_request_error', code, ...(param ? { param } : {}), message });
}

function str(value: unknown, param: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(param, `Missing required param: ${param}.`, 'parameter_missing');
  return value;
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function expandList(params: Obj): string[] {
  return arr(params.expand).map(String);
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Decodes `a[b][0][c]=v` form encoding (what the SDK sends) into nested objects and arrays. */
export function decodeForm(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const pair of encoded.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    const value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    const path = rawKey.split(/\[|\]\[|\]/).filter((part, i) => i === 0 || part !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return arrayify(root) as Record<string, unknown>;
}

function arrayify(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, arrayify(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}
