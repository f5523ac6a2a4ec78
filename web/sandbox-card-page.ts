/**
 * The sandbox processor's card page, served at `{api_url}/sandbox/card?token=...`. It looks like a
 * real hosted payment page so the setup-link flow can be tried end to end, and says at the top, in
 * words no one can miss, that it is a sandbox and that no real card is charged.
 *
 * No script and no external resources: it works with JavaScript off and under a strict CSP
 * (SANDBOX_PAGE_HEADERS). The card number is never echoed back after an error.
 */

import type { SandboxCardFormView, SandboxCardPageView } from '../clients/payments/sandbox-card-form.js';

/** Headers to send with the page: no caching of a single-use link, no referrer leaking the token. */
export const SANDBOX_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  // form-action also governs the 303 that follows the form's POST, and that goes to the customer's
  // success_url on their own site (validated as http(s) when the link is made), so any http(s) target.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'",
};

/** The page a sandbox card answer describes: the form, or why the link no longer works. */
export function renderSandboxPage(view: SandboxCardPageView): string {
  return view.kind === 'form' ? renderSandboxCardPage(view) : renderSandboxLinkGonePage(view.message);
}

export function renderSandboxCardPage(input: Omit<SandboxCardFormView, 'kind'>): string {
  const invalid = (field: string): string => (input.errorField === field ? ' aria-invalid="true" autofocus' : '');
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  const cancel = input.cancelUrl ? `<a class="cancel" href="${escapeHtml(input.cancelUrl)}">Cancel and go back</a>` : '';
  return page(
    'Save a card (sandbox)',
    `<form class="card" method="post" action="${escapeHtml(input.formAction)}" novalidate>
      <h1>Save a card for future orders</h1>
      ${dueNowText(input.dueNow ?? [])}
      ${error}
      <input type="hidden" name="token" value="${escapeHtml(input.token)}">
      <label for="card_number">Card number</label>
      <input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" maxlength="23" required${invalid('card_number')}>
      <div class="row">
        <div>
          <label for="expiry">Expiry (MM / YY)</label>
          <input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="12 / 30" maxlength="7" value="${escapeHtml(input.values?.expiry ?? '')}"${invalid('expiry')}>
        </div>
        <div>
          <label for="cvc">CVC</label>
          <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4"${invalid('cvc')}>
        </div>
      </div>
      <label for="name">Name on card</label>
      <input id="name" name="name" autocomplete="cc-name" placeholder="Ada Lovelace" maxlength="100" value="${escapeHtml(input.values?.name ?? '')}"${invalid('name')}>
      <button type="submit">${escapeHtml(saveLabel(input.dueNow ?? []))}</button>
      ${cancel}
    </form>`,
  );
}

type DueNow = NonNullable<SandboxCardFormView['dueNow']>;

/** What saving pays at once, invoice by invoice, or that nothing is charged now (only when so). */
function dueNowText(dueNow: DueNow): string {
  if (dueNow.length === 0) return '<p class="lead">Orders and renewals are charged to this card. Nothing is charged when you save it.</p>';
  const items = dueNow.map((i) => `<li>Invoice ${escapeHtml(i.number)}: <strong>${escapeHtml(money(i.amount, i.currency))}</strong></li>`).join('');
  const total = totalOf(dueNow);
  const pays = total ? `Saving this card pays ${escapeHtml(total)} now` : 'Saving this card pays these now';
  return `<div class="due-now" id="due-now"><p><strong>${pays}</strong>, for what is open on your account:</p><ul>${items}</ul><p>After that, orders and renewals are charged to this card.</p></div>`;
}

function saveLabel(dueNow: DueNow): string {
  if (dueNow.length === 0) return 'Save card';
  const total = totalOf(dueNow);
  return total ? `Save card and pay ${total}` : 'Save card and pay what is open';
}

/** The sum, when every invoice is in one currency; null otherwise. */
function totalOf(dueNow: DueNow): string | null {
  const currency = dueNow[0]?.currency;
  if (!currency || dueNow.some((i) => i.currency !== currency)) return null;
  return money(
    dueNow.reduce((sum, i) => sum + i.amount, 0),
    currency,
  );
}

/** Minor units as people read them: $17.50. */
function money(minor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
}

/** The page for a link that is unknown, already used or expired. */
function renderSandboxLinkGonePage(message: string): string {
  return page('Link no longer valid (sandbox)', `<div class="card"><h1>This link no longer works</h1><p class="lead">${escapeHtml(message)}</p></div>`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fb}
  .sandbox{background:#b42318;color:#fff;padding:14px 20px;text-align:center}
  .sandbox strong{display:block;font-size:18px;letter-spacing:.08em}
  .sandbox p{margin:4px 0 0;font-size:14px}
  .sandbox code{background:rgba(255,255,255,.18);padding:1px 6px;border-radius:4px;font-size:14px;white-space:nowrap}
  main{max-width:440px;margin:32px auto;padding:0 16px}
  .card{background:#fff;border:1px solid #e3e8ee;border-radius:12px;padding:28px;box-shadow:0 2px 8px rgba(26,31,54,.06)}
  h1{font-size:20px;margin:0 0 4px}
  .lead{color:#56607a;margin:0 0 20px;font-size:14px}
  label{display:block;font-size:14px;font-weight:600;margin:14px 0 6px}
  input{width:100%;padding:11px 12px;font:inherit;border:1px solid #cfd7df;border-radius:8px;background:#fff}
  input:focus{outline:none;border-color:#635bff;box-shadow:0 0 0 3px rgba(99,91,255,.2)}
  input[aria-invalid=true]{border-color:#b42318}
  .row{display:flex;gap:12px}
  .row>div{flex:1}
  button{margin-top:22px;width:100%;padding:12px;font:inherit;font-weight:600;color:#fff;background:#635bff;border:0;border-radius:8px;cursor:pointer}
  button:hover{background:#5147e5}
  .cancel{display:block;text-align:center;margin-top:14px;color:#56607a;font-size:14px}
  .due-now{background:#fffaeb;border:1px solid #fedf89;border-radius:8px;padding:10px 14px;margin:0 0 16px;font-size:14px}
  .due-now p{margin:4px 0}.due-now ul{margin:4px 0;padding-left:20px}
  .error{background:#fef3f2;border:1px solid #fecdca;color:#b42318;border-radius:8px;padding:10px 12px;font-size:14px}
  @media (max-width:480px){main{margin:16px auto}.card{padding:20px;border-radius:10px}.row{flex-direction:column;gap:0}}
</style>
</head>
<body>
<div class="sandbox" role="note">
  <strong>SANDBOX</strong>
  <p>This is a test payment page. No real card is charged and real card numbers are refused.</p>
  <p>Use <code>4242 4242 4242 4242</code> (charges) or <code>4000 0000 0000 0341</code> (saved, then declined when charged), any future expiry and any CVC.</p>
</div>
<main>
${body}
</main>
</body>
</html>
`;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
