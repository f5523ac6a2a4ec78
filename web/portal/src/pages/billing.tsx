import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { useMutation } from 'urql';
import { graphql } from '../gql';
import { ShowMore, usePagedQuery } from '../ui/paged-query';
import type { BillingQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { formatDate, formatMoney } from '../ui/format';

const BillingDocument = graphql(`
  query Billing($first: Int!, $after: String) {
    billing {
      currency monthToDateSpend pastDueAmount
      nextCharge { amount currency date }
      pastDueInvoices { number dueAt amountDue amountPaid currency }
      invoicesConnection(first: $first, after: $after) {
        nodes {
          number status amountDue amountPaid amountRemaining currency issuedAt dueAt paidAt orderReference pastDue
          lines { description quantity unitAmount amount } domains hostedInvoiceUrl lastPaymentError
        }
        pageInfo { hasNextPage endCursor }
      }
    }
    paymentMethod { onFile brand last4 expMonth expYear }
  }
`);

const CreateCardSetupLinkDocument = graphql(`
  mutation CreateCardSetupLink($input: CardSetupLinkInput!) {
    createCardSetupLink(input: $input) { url }
  }
`);

const PayInvoicesDocument = graphql(`
  mutation PayInvoices($input: PayInvoicesInput!) {
    payInvoices(input: $input) { paidCount detail }
  }
`);

type Billing = BillingQuery['billing'];
type Card = BillingQuery['paymentMethod'];
type Invoice = Billing['invoicesConnection']['nodes'][number];

/** Invoices, what is past due and what to do about it, the next charge, and the card on file. */
export function BillingPage() {
  const paged = usePagedQuery({ query: BillingDocument, variables: { first: 25 }, pageInfo: (d) => d.billing.invoicesConnection.pageInfo });
  const result = paged.first;
  // The processor's card page sends the person back here with ?card=saved or ?card=cancelled.
  const returned = new URLSearchParams(useSearch()).get('card');
  // What "pay now" did, kept here so it stays on screen after the past-due banner goes.
  const [paid, setPaid] = useState<string | null>(null);
  return (
    <Page title="Billing">
      {paid ? <Notice tone="ok">{paid}</Notice> : null}
      {returned === 'cancelled' ? <Notice>No card was saved: you left the card page before saving.</Notice> : null}
      <QueryState {...result}>
        {(data) => (
          <>
            {returned === 'saved' ? <CardSaved invoices={data.billing.invoicesConnection.nodes} /> : null}
            <PastDueBanner billing={data.billing} card={data.paymentMethod} onPaid={setPaid} />
            <div className="stats">
              <div className="stat">
                <strong>{formatMoney(data.billing.monthToDateSpend, data.billing.currency)}</strong>spent this month
              </div>
              <div className="stat">
                {data.billing.nextCharge ? (
                  <>
                    <strong>{formatMoney(data.billing.nextCharge.amount, data.billing.nextCharge.currency)}</strong>next charge,{' '}
                    {formatDate(data.billing.nextCharge.date)}
                  </>
                ) : (
                  <>
                    <strong>None</strong>no renewal scheduled
                  </>
                )}
              </div>
              <div className="stat">
                <strong>{formatMoney(data.billing.pastDueAmount, data.billing.currency)}</strong>past due
              </div>
            </div>
            <CardOnFile card={data.paymentMethod} dueNow={dueOnCardSave(data.billing)} />
            <Invoices invoices={paged.pages.flatMap((p) => p.billing.invoicesConnection.nodes)} />
            <ShowMore
              label="Show more invoices"
              hasNextPage={paged.hasNextPage}
              loading={paged.loading}
              error={paged.error}
              onClick={() => void paged.loadMore()}
            />
          </>
        )}
      </QueryState>
    </Page>
  );
}

function PastDueBanner(props: { billing: Billing; card: Card; onPaid: (detail: string) => void }) {
  const invoices = props.billing.pastDueInvoices;
  if (invoices.length === 0) return null;
  const numbers = invoices.map((i) => `${i.number} (due ${formatDate(i.dueAt)})`).join(', ');
  return (
    <div role="alert" className="banner banner-error billing-past-due">
      <strong>{formatMoney(props.billing.pastDueAmount, props.billing.currency)} is past due</strong> on {invoices.length === 1 ? 'invoice' : 'invoices'}{' '}
      {numbers}.{' '}
      {props.card.onFile
        ? 'If the card on file can no longer be charged, replace it below'
        : `Add a card below so ${invoices.length === 1 ? 'it' : 'they'} can be paid`}
      ; if an invoice looks wrong, <Link href="/requests">raise a change request</Link> of kind billing.
      {props.card.onFile ? <PayNow onPaid={props.onPaid} /> : null}
    </div>
  );
}

/** "Pay now": charges the card on file for what is open, at once, and says what happened. */
function PayNow(props: { onPaid: (detail: string) => void }) {
  const [state, pay] = useMutation(PayInvoicesDocument);
  const payNow = async () => {
    const answer = await pay({ input: {} }, { additionalTypenames: ['Billing', 'Invoice'] });
    const detail = answer.data?.payInvoices.detail;
    if (detail) props.onPaid(detail);
  };
  return (
    <div className="pay-now">
      <button type="button" className="primary" disabled={state.fetching} onClick={() => void payNow()}>
        {state.fetching ? 'Paying…' : 'Pay now'}
      </button>
      <ErrorBanner message={errorSentence(state.error)} />
    </div>
  );
}

/**
 * What saving a card pays at once: every open invoice (the service pays them all when a card is
 * saved, as Stripe's invoices.pay does). Past-due ones are all in pastDueInvoices; open ones not yet
 * due are among the newest, on the first page.
 */
function dueOnCardSave(billing: Billing): readonly { number: string; amount: number; currency: string; pastDue: boolean }[] {
  const due = new Map<string, { number: string; amount: number; currency: string; pastDue: boolean }>();
  for (const i of billing.pastDueInvoices) due.set(i.number, { number: i.number, amount: i.amountDue - i.amountPaid, currency: i.currency, pastDue: true });
  for (const i of billing.invoicesConnection.nodes) {
    if (i.status === 'open' && i.amountRemaining > 0 && !due.has(i.number))
      due.set(i.number, { number: i.number, amount: i.amountRemaining, currency: i.currency, pastDue: i.pastDue });
  }
  return [...due.values()];
}

/** The confirmation on coming back from the card page: the card is saved, and what it paid just now. */
function CardSaved(props: { invoices: readonly Invoice[] }) {
  // Paid in the last ten minutes: the invoices the saved card paid on the way back here.
  const since = Date.now() - 10 * 60_000;
  const paid = props.invoices.filter((i) => i.status === 'paid' && i.paidAt && new Date(i.paidAt).getTime() >= since);
  return (
    <Notice tone="ok">
      Your card is saved. It is the card charged from now on.
      {paid.length > 0
        ? ` It paid ${paid.map((i) => `invoice ${i.number} (${formatMoney(i.amountPaid, i.currency)})`).join(', ')} just now.`
        : ' Nothing was charged when you saved it.'}
    </Notice>
  );
}

function CardOnFile(props: { card: Card; dueNow: ReturnType<typeof dueOnCardSave> }) {
  const [state, createLink] = useMutation(CreateCardSetupLinkDocument);
  const [leaving, setLeaving] = useState(false);
  const { card } = props;
  const addCard = async () => {
    const back = `${window.location.origin}/portal/billing`;
    const answer = await createLink({ input: { successUrl: `${back}?card=saved`, cancelUrl: `${back}?card=cancelled` } });
    const url = answer.data?.createCardSetupLink.url;
    if (!url) return;
    // The processor's own page takes the card; card numbers never pass through the portal.
    setLeaving(true);
    window.location.assign(url);
  };
  const label = card.onFile ? 'Replace the card' : 'Add a card';
  return (
    <section className="card card-titled" aria-labelledby="card-on-file">
      <h2 id="card-on-file">Card on file</h2>
      {card.onFile ? (
        <p className="card-on-file">
          <span className="card-brand">{card.brand ?? 'Card'}</span> ending in <strong>{card.last4}</strong>
          {card.expMonth && card.expYear ? (
            <>
              , expires {String(card.expMonth).padStart(2, '0')}/{card.expYear}
            </>
          ) : null}
        </p>
      ) : (
        <p>No card on file. Orders and renewals need one.</p>
      )}
      <ErrorBanner message={errorSentence(state.error)} />
      <button type="button" className="primary" disabled={state.fetching || leaving} onClick={() => void addCard()}>
        {state.fetching || leaving ? 'Opening the card page…' : label}
      </button>
      {props.dueNow.length > 0 ? (
        <p className="card-due-now">
          <strong>Saving a card pays now:</strong>{' '}
          {props.dueNow.map((i) => `invoice ${i.number}, ${formatMoney(i.amount, i.currency)}${i.pastDue ? ' (past due)' : ''}`).join('; ')}.
        </p>
      ) : (
        <p className="card-due-now">Nothing is charged when you save a card; orders and renewals are charged to it.</p>
      )}
      <p className="aside">You save the card on the payment processor's page, then come back here.</p>
    </section>
  );
}

function Invoices(props: { invoices: readonly Invoice[] }) {
  if (props.invoices.length === 0) return <p>No invoices yet.</p>;
  return (
    <section aria-labelledby="invoices">
      <h2 id="invoices">Invoices</h2>
      <div className="table-wrap" role="region" aria-labelledby="invoices" tabIndex={0}>
        <table className="invoices">
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Due</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {props.invoices.map((invoice) => (
              <tr key={invoice.number}>
                <td>
                  {invoice.number}
                  <div className="hint">
                    {invoice.orderReference ? `${invoice.orderReference}, ` : ''}issued {formatDate(invoice.issuedAt)}
                  </div>
                  <InvoiceDetails invoice={invoice} />
                </td>
                <td>{formatDate(invoice.dueAt)}</td>
                <td>
                  {formatMoney(invoice.amountDue, invoice.currency)}
                  {invoice.paidAt ? <div className="hint">paid {formatDate(invoice.paidAt)}</div> : null}
                </td>
                <td>{invoice.pastDue ? <Chip value="past_due" /> : <Chip value={invoice.status} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** What an invoice is for: its lines, its domains, why a payment failed, and the processor's page. */
function InvoiceDetails(props: { invoice: Invoice }) {
  const { invoice } = props;
  return (
    <details className="invoice-details">
      <summary>Details</summary>
      <ul>
        {invoice.lines.map((line) => (
          <li key={line.description}>
            {line.description}: {line.quantity} × {formatMoney(line.unitAmount, invoice.currency)} = {formatMoney(line.amount, invoice.currency)}
          </li>
        ))}
      </ul>
      {invoice.domains.length > 0 ? <p className="hint">Domains: {invoice.domains.join(', ')}</p> : null}
      {invoice.amountRemaining > 0 ? <p className="hint">Still owed: {formatMoney(invoice.amountRemaining, invoice.currency)}</p> : null}
      {invoice.lastPaymentError ? <p className="hint">{invoice.lastPaymentError}</p> : null}
      {invoice.hostedInvoiceUrl ? (
        <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noreferrer">
          View the invoice at the payment processor
        </a>
      ) : null}
    </details>
  );
}
