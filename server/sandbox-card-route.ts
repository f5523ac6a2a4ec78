import type { Services } from '../resolvers/context.js';
import { handleSandboxCardForm, showSandboxCardPage } from '../clients/payments/sandbox-card-form.js';
import { afterCardSaved } from '../resolvers/orders/after-card-saved.js';
import { listInvoicesDueOnCardSave } from '../resolvers/orders/invoices-paid-on-card-save.js';
import { renderSandboxPage, SANDBOX_PAGE_HEADERS } from '../web/sandbox-card-page.js';
import type { SandboxCardPageView } from '../clients/payments/sandbox-card-form.js';

/**
 * GET and POST {api_url}/sandbox/card?token=...: the sandbox processor's card page, a person's page
 * (HTML, urlencoded form), not part of the JSON API, registered for its path in the account
 * listener's route table (server/api-app.ts). Answers null when Stripe serves (there is no sandbox page then).
 */
export async function handleSandboxCardRoute(request: Request, services: Services): Promise<Response | null> {
  if (services.payments.kind !== 'sandbox') return null;
  const url = new URL(request.url);
  const token = url.searchParams.get('token');
  if (request.method === 'GET' || request.method === 'HEAD') {
    const page = await showSandboxCardPage(token, services.sandboxStore);
    return new Response(renderSandboxPage(await withDueNow(page.view, services)), { status: page.status, headers: SANDBOX_PAGE_HEADERS });
  }
  if (request.method !== 'POST') {
    return new Response('Use GET to open the card page and POST to save the card.', {
      status: 405,
      headers: { allow: 'GET, POST', 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const fields = Object.fromEntries(new URLSearchParams(await request.text()));
  const result = await handleSandboxCardForm(token, fields, services.sandboxStore);
  if (result.ok) {
    // As Stripe's invoices.pay would: a saved card pays what is open at once, before the person lands.
    await afterCardSaved(services, result.customerId);
    return new Response(null, { status: 303, headers: { location: result.redirectTo, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
  }
  return new Response(renderSandboxPage(await withDueNow(result.view, services)), { status: result.status, headers: SANDBOX_PAGE_HEADERS });
}

/** The form with what saving the card will pay at once, so the page never says "nothing now" untruly. */
async function withDueNow(view: SandboxCardPageView, services: Services): Promise<SandboxCardPageView> {
  if (view.kind !== 'form') return view;
  const row = await services.sandboxStore.findSetupToken(view.token);
  if (!row) return view;
  return { ...view, dueNow: await listInvoicesDueOnCardSave(services, row.customer_id) };
}
