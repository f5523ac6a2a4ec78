import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { NewOrderSetupQuery, PlaceOrderMutation } from '../../gql/graphql';
import { errorCode, errorSentence, newIdempotencyKey } from '../../api';
import { formatMoney } from '../../ui/format';
import type { SentOrder } from './order-draft';
import type { Preview } from './preview-result';
import { problemsOf } from './preview-result';
import { ProblemList, perInterval } from './preview-panel';
import { setupPath } from '../domain-setup';

const PlaceOrderDocument = graphql(`
  mutation PlaceOrder($order: OrderInput!, $idempotencyKey: String!) {
    placeOrder(order: $order, idempotencyKey: $idempotencyKey) {
      orderId reference subscriptionId status quantity domains mailboxes total replayed
      charged { amount currency }
    }
  }
`);

export type PlacedOrder = PlaceOrderMutation['placeOrder'];
type Card = NewOrderSetupQuery['paymentMethod'];

export const cardWords = (card: Card) => `the ${card.brand ? card.brand[0]!.toUpperCase() + card.brand.slice(1) : 'card'} ending ${card.last4 ?? '····'}`;

/**
 * Step 3: what will be ordered and what the card on file is charged now, then place. This step is
 * mounted afresh each time the person reaches it, so its Idempotency-Key is one per confirmation:
 * a double click, or a retry after a lost answer, replays the one order instead of placing two.
 */
export function ReviewStep(props: {
  sent: SentOrder;
  preview: Preview;
  card: Card;
  onRecheckCard: () => void;
  onBack: () => void;
  onPlaced: (order: PlacedOrder) => void;
}) {
  const { sent, preview, card } = props;
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [result, place] = useMutation(PlaceOrderDocument);
  const inFlight = useRef(false);
  const money = (minor: number) => formatMoney(minor, preview.price.currency);
  const submit = async () => {
    // The button is disabled while the order is on its way; this guards the clicks that land first.
    if (inFlight.current || !card.onFile) return;
    inFlight.current = true;
    try {
      const answer = await place({ order: sent.input, idempotencyKey });
      if (answer.data) props.onPlaced(answer.data.placeOrder);
    } finally {
      inFlight.current = false;
    }
  };
  const code = errorCode(result.error);
  return (
    <div className="review">
      <section className="card" aria-labelledby="review-order">
        <h3 id="review-order">{preview.product}</h3>
        <p>
          {preview.domains} {preview.domains === 1 ? 'domain' : 'domains'}, {preview.mailboxes} {preview.mailboxes === 1 ? 'mailbox' : 'mailboxes'}
          {sent.input.promotionCode ? `, promotion code ${sent.input.promotionCode}` : ''}.
        </p>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Forwards to</th>
                <th scope="col">Mailboxes</th>
              </tr>
            </thead>
            <tbody>
              {sent.input.domains.map((d) => (
                <tr key={d.domain}>
                  <td>{d.domain}</td>
                  <td>{d.forwardTo ?? <span className="hint">No forwarding</span>}</td>
                  <td>
                    <ul className="plain-list">
                      {d.mailboxes.map((m) => (
                        <li key={m.localPart}>
                          {m.firstName} {m.lastName} · {m.localPart}@{d.domain}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card charge" aria-labelledby="review-charge">
        <h3 id="review-charge">Payment</h3>
        {card.onFile ? (
          <p data-testid="charge-sentence">
            Placing this order charges <strong>{money(preview.price.firstInvoice)}</strong> now to {cardWords(card)}
            {card.expMonth && card.expYear ? ` (expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear})` : ''}, then {money(preview.price.total)}{' '}
            {perInterval(preview.price.interval)} until you cancel.
          </p>
        ) : (
          <div role="alert" className="banner banner-warn">
            No card is on file, so this order cannot be placed yet. <Link href="/billing">Add a card on the Billing page</Link>, then come back and{' '}
            <button type="button" className="link-button" onClick={props.onRecheckCard}>
              check for the card again
            </button>
            .
          </div>
        )}
        {result.error ? (
          <div role="alert" className="banner banner-error">
            <p>{errorSentence(result.error)}</p>
            {code === 'no_payment_method' ? (
              <p>
                <Link href="/billing">Add a card on the Billing page</Link>.
              </p>
            ) : null}
            {code === 'order_problems' ? <ProblemList problems={problemsOf(result.error)} rows={props.sent.rows} /> : null}
          </div>
        ) : null}
        <div className="wizard-actions">
          <button type="button" onClick={props.onBack} disabled={result.fetching}>
            Back to domains
          </button>
          <button type="button" className="primary" onClick={() => void submit()} disabled={!card.onFile || result.fetching} aria-busy={result.fetching}>
            {result.fetching ? 'Placing the order…' : `Place order and pay ${money(preview.price.firstInvoice)}`}
          </button>
        </div>
      </section>
    </div>
  );
}

/** After placing: the order's reference and where to go next. */
export function PlacedView(props: { order: PlacedOrder; domains: readonly string[]; onAnother: () => void }) {
  const { order } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card placed" aria-labelledby="placed-title">
      <h2 id="placed-title" tabIndex={-1} ref={heading}>
        Order {order.reference} placed
      </h2>
      <p role="status" className="banner banner-ok">
        {formatMoney(order.charged.amount, order.charged.currency)} was charged to your card for {order.domains} {order.domains === 1 ? 'domain' : 'domains'}{' '}
        and {order.mailboxes} {order.mailboxes === 1 ? 'mailbox' : 'mailboxes'}.
        {order.replayed ? ' (This is the order already placed with this confirmation; nothing was charged twice.)' : ''}
      </p>
      <p>
        The inboxes are being built. Each domain then needs a few DNS records (mail servers, senders, signing key, policy): its setup page lists them with their
        status, and can publish them for you.
      </p>
      {props.domains.length > 0 ? (
        <ul className="plain-list placed-domains" aria-label="Setup of each domain">
          {props.domains.map((domain) => (
            <li key={domain}>
              <Link href={setupPath(domain)}>Set up {domain}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="wizard-actions">
        <Link href="/" className="button-link">
          Go to the dashboard
        </Link>
        <button type="button" onClick={props.onAnother}>
          Place another order
        </button>
      </div>
    </section>
  );
}
