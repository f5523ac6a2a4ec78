import { randomBytes } from 'node:crypto';
import type { SandboxSetupToken, SandboxStore } from './sandbox-store.js';
import { checkSandboxCardNumber } from './sandbox-test-cards.js';

/**
 * The two requests of the sandbox card page, as plain functions over the SandboxStore: the HTTP
 * layer passes the token (query `token`, or the form's hidden `token` field) and the decoded form
 * fields, and draws the page the answer describes (web/sandbox-card-page.ts): no HTML here.
 */

/** The form, with what to keep and what to fix after a refusal. */
export interface SandboxCardFormView {
  readonly kind: 'form';
  /** Where the form posts: normally the page's own path and token. */
  readonly formAction: string;
  readonly token: string;
  readonly cancelUrl: string | null;
  /** A sentence saying what to fix, shown above the form. */
  readonly error?: string | null;
  /** The field the error is about, so it is marked and focused. */
  readonly errorField?: 'card_number' | 'expiry' | 'cvc' | 'name' | null;
  /** Values to keep after an error (never the card number or CVC). */
  readonly values?: { readonly name?: string; readonly expiry?: string };
  /** The open invoices saving the card pays at once (the HTTP layer fills this in); empty when nothing is charged. */
  readonly dueNow?: readonly { readonly number: string; readonly amount: number; readonly currency: string }[];
}

/** The page for a link that is unknown, already used or expired, with a sentence saying why. */
export interface SandboxLinkGoneView {
  readonly kind: 'gone';
  readonly message: string;
}

export type SandboxCardPageView = SandboxCardFormView | SandboxLinkGoneView;

export interface SandboxCardFormOptions {
  readonly now?: () => Date;
}

export interface SandboxCardPageAnswer {
  readonly status: 200 | 404 | 410;
  readonly view: SandboxCardPageView;
}

export type SandboxCardFormResult =
  | { readonly ok: true; readonly status: 303; readonly redirectTo: string; readonly customerId: string }
  | { readonly ok: false; readonly status: 400 | 404 | 410; readonly code: string; readonly detail: string; readonly view: SandboxCardPageView };

type TokenCheck =
  | { readonly ok: true; readonly row: SandboxSetupToken }
  | { readonly ok: false; readonly status: 404 | 410; readonly code: string; readonly detail: string };

/** GET {api_url}/sandbox/card?token=...: the form, or why the link no longer works. */
export async function showSandboxCardPage(
  token: string | null | undefined,
  store: SandboxStore,
  options: SandboxCardFormOptions = {},
): Promise<SandboxCardPageAnswer> {
  const check = await checkToken(token, store, now(options));
  if (!check.ok) return { status: check.status, view: { kind: 'gone', message: check.detail } };
  return { status: 200, view: { kind: 'form', formAction: actionFor(check.row.token), token: check.row.token, cancelUrl: check.row.cancel_url } };
}

/**
 * POST {api_url}/sandbox/card: saves the test card and sends the person to `success_url` (303).
 * A wrong card number, expiry or CVC shows the form again with a sentence saying what to fix, and
 * the link keeps working; a saved card uses the link up.
 */
export async function handleSandboxCardForm(
  token: string | null | undefined,
  fields: Readonly<Record<string, string | undefined>>,
  store: SandboxStore,
  options: SandboxCardFormOptions = {},
): Promise<SandboxCardFormResult> {
  const at = now(options);
  const check = await checkToken(token ?? fields.token, store, at);
  if (!check.ok) return { ok: false, status: check.status, code: check.code, detail: check.detail, view: { kind: 'gone', message: check.detail } };
  const row = check.row;

  const refuse = (code: string, detail: string, field: 'card_number' | 'expiry' | 'cvc' | 'name'): SandboxCardFormResult => ({
    ok: false,
    status: 400,
    code,
    detail,
    view: {
      kind: 'form',
      formAction: actionFor(row.token),
      token: row.token,
      cancelUrl: row.cancel_url,
      error: detail,
      errorField: field,
      values: { name: fields.name ?? '', expiry: fields.expiry ?? '' },
    },
  });

  const card = checkSandboxCardNumber(fields.card_number);
  if (!card.ok) return refuse(card.code, card.message, 'card_number');
  const expiry = parseExpiry(fields, at);
  if (!expiry.ok) return refuse('expiry_invalid', expiry.message, 'expiry');
  const cvc = (fields.cvc ?? '').trim();
  if (cvc !== '' && !/^\d{3,4}$/.test(cvc)) return refuse('cvc_invalid', 'The CVC is the 3 or 4 digits on the card; check it and try again.', 'cvc');
  if ((fields.name ?? '').length > 100) return refuse('name_too_long', 'The name on the card is at most 100 characters.', 'name');

  const redeemed = await store.redeemSetupToken(
    row.token,
    {
      customer_id: row.customer_id,
      payment_method_id: `sbx_pm_${randomBytes(12).toString('base64url')}`,
      brand: card.brand,
      last4: card.digits.slice(-4),
      exp_month: expiry.month,
      exp_year: expiry.year,
      outcome: card.outcome,
      saved_at: at,
    },
    at,
  );
  if (!redeemed) {
    // Another post with this token won the race, or it expired a moment ago.
    const detail =
      'This card link was already used or has expired. Ask for a new one: “Add a card” on the portal’s Billing page, or POST /v1/payment-method/setup-link from a program.';
    return { ok: false, status: 410, code: 'setup_link_used', detail, view: { kind: 'gone', message: detail } };
  }
  return { ok: true, status: 303, redirectTo: redeemed.success_url, customerId: redeemed.customer_id };
}

async function checkToken(token: string | null | undefined, store: SandboxStore, at: Date): Promise<TokenCheck> {
  const row = token ? await store.findSetupToken(token) : null;
  if (!row) {
    return {
      ok: false,
      status: 404,
      code: 'setup_link_unknown',
      detail:
        'This card link is not valid. Ask for a new one: “Add a card” on the portal’s Billing page, or POST /v1/payment-method/setup-link from a program.',
    };
  }
  if (row.used_at !== null) {
    return {
      ok: false,
      status: 410,
      code: 'setup_link_used',
      detail: 'This card link was already used: the card is saved. Ask for a new link to save another card.',
    };
  }
  if (row.expires_at.getTime() <= at.getTime()) {
    return {
      ok: false,
      status: 410,
      code: 'setup_link_expired',
      detail:
        'This card link has expired (links work for one hour). Ask for a new one: “Add a card” on the portal’s Billing page, or POST /v1/payment-method/setup-link from a program.',
    };
  }
  return { ok: true, row };
}

type Expiry = { readonly ok: true; readonly month: number; readonly year: number } | { readonly ok: false; readonly message: string };

/** `expiry` as MM/YY, MM / YYYY or MMYY, or `exp_month` and `exp_year`; optional, as in Stripe's test mode. */
function parseExpiry(fields: Readonly<Record<string, string | undefined>>, at: Date): Expiry {
  const raw = (fields.expiry ?? '').trim();
  let month: number;
  let year: number;
  if (raw !== '') {
    const m = /^(\d{1,2}) ?[/-]? ?(\d{2}|\d{4})$/.exec(raw.replace(/\s+/g, ' '));
    if (!m) return { ok: false, message: 'Write the expiry as MM / YY, for example 12 / 30.' };
    month = Number(m[1]);
    year = Number(m[2]);
  } else if (fields.exp_month || fields.exp_year) {
    month = Number(fields.exp_month);
    year = Number(fields.exp_year);
  } else {
    return { ok: true, month: 12, year: at.getUTCFullYear() + 3 };
  }
  if (year < 100) year += 2000;
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) {
    return { ok: false, message: 'The expiry month is 01 to 12; write the expiry as MM / YY.' };
  }
  // A card is valid through the last day of its expiry month.
  if (year < at.getUTCFullYear() || (year === at.getUTCFullYear() && month < at.getUTCMonth() + 1)) {
    return { ok: false, message: 'This card has expired; use a future expiry date.' };
  }
  if (year > at.getUTCFullYear() + 50) return { ok: false, message: 'The expiry year is too far away; check it.' };
  return { ok: true, month, year };
}

/** Relative, so the page works under any {api_url} prefix: it posts back to its own path. */
function actionFor(token: string): string {
  return `?token=${encodeURIComponent(token)}`;
}

function now(options: SandboxCardFormOptions): Date {
  return options.now ? options.now() : new Date();
}
