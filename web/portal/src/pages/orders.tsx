import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useClient, useMutation } from 'urql';
import { graphql } from '../gql';
import { ShowMore, usePagedQuery } from '../ui/paged-query';
import type { OrdersQuery } from '../gql/graphql';
import { errorSentence, newIdempotencyKey } from '../api';
import { ConfirmButtons } from '../ui/confirm-buttons';
import { SEQUENCER_CHOICES } from '../choices';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { SelectField } from '../ui/field';
import { formatDate, formatMoney } from '../ui/format';

const OrderExportDocument = graphql(`
  query OrderExport($subscriptionId: String!, $format: String) {
    orderExport(subscriptionId: $subscriptionId, format: $format)
  }
`);

/**
 * The export formats always offered (docs/mailboxes.md); every sequencer an order can name is a
 * format too, so the order's own sequencer gets a button of its own (marked) when it is not one of these.
 */
const EXPORT_FORMATS: readonly { value: string; label: string }[] = [
  { value: 'generic', label: 'IMAP/SMTP (any tool)' },
  { value: 'instantly', label: 'Instantly' },
  { value: 'smartlead', label: 'Smartlead' },
];

/** The id of an order's card on the Mailboxes page (its export sits there, beside the credentials). */
export const mailboxesOrderId = (reference: string) => `mailboxes-${reference.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The buttons of one order: the usual three, and its sequencer's format if that is another (not other or none). */
function exportFormatsFor(sequencer: string): readonly { value: string; label: string }[] {
  if (EXPORT_FORMATS.some((f) => f.value === sequencer) || sequencer === 'other' || sequencer === 'none') return EXPORT_FORMATS;
  const own = SEQUENCER_CHOICES.find((c) => c.value === sequencer);
  return own ? [...EXPORT_FORMATS, { value: own.value, label: own.label }] : EXPORT_FORMATS;
}

export const OrdersDocument = graphql(`
  query Orders($first: Int!, $after: String) {
    ordersConnection(first: $first, after: $after) {
      nodes {
        orderId subscriptionId reference product status domainCount mailboxCount
        renewalTotal currency interval createdAt
        sequencer monitorDeliverability monitorReconnection
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const SetSequencerDocument = graphql(`
  mutation SetSequencer($subscriptionId: String!, $input: SequencerInput!) {
    setSequencer(subscriptionId: $subscriptionId, input: $input) { subscriptionId sequencer }
  }
`);

const SetMonitorsDocument = graphql(`
  mutation SetMonitors($subscriptionId: String!, $input: MonitorsInput!) {
    setMonitors(subscriptionId: $subscriptionId, input: $input) { subscriptionId monitorDeliverability monitorReconnection }
  }
`);

const ReinstateOrderDocument = graphql(`
  mutation ReinstateOrder($orderId: Int!, $idempotencyKey: String!) {
    reinstateOrder(orderId: $orderId, idempotencyKey: $idempotencyKey) { orderId reference status charged { amount currency } mailboxesToReactivate }
  }
`);

type Order = OrdersQuery['ordersConnection']['nodes'][number];
type Monitor = 'deliverability' | 'reconnection';

/** What the last change said, shown in the card of the order it was about (one message at a time). */
interface Outcome {
  readonly orderId: number;
  readonly ok: boolean;
  readonly text: string;
}

const MONITORS: readonly { key: Monitor; label: string; hint: string }[] = [
  { key: 'deliverability', label: 'Deliverability monitoring', hint: 'Watch inbox placement and blacklists; analytics start once it is on.' },
  { key: 'reconnection', label: 'Reconnection', hint: 'Reconnect inboxes the sending tool drops.' },
];

/** The account's orders, newest first, 50 at a time ("Show more"), each with its sending tool and monitor switches. */
export function OrdersPage() {
  const paged = usePagedQuery({ query: OrdersDocument, variables: { first: 50 }, pageInfo: (d) => d.ordersConnection.pageInfo });
  const { first: result, reexecute } = paged;
  const orders = paged.pages.flatMap((p) => p.ordersConnection.nodes);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The answers of the two mutations are not the list's type, so the list is asked for again.
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  return (
    <Page
      title="Orders"
      actions={
        <Link href="/new-order" className="button-link">
          New order
        </Link>
      }
    >
      <QueryState {...result}>
        {() =>
          orders.length === 0 ? (
            <p>
              No orders yet. <Link href="/new-order">Place your first order</Link>.
            </p>
          ) : (
            <>
              {orders.map((order) => (
                <OrderCard
                  key={order.orderId}
                  order={order}
                  outcome={outcome?.orderId === order.orderId ? outcome : null}
                  onOutcome={(ok, text) => {
                    setOutcome({ orderId: order.orderId, ok, text });
                    if (ok) refresh();
                  }}
                />
              ))}
              <ShowMore
                label="Show more orders"
                hasNextPage={paged.hasNextPage}
                loading={paged.loading}
                error={paged.error}
                onClick={() => void paged.loadMore()}
              />
            </>
          )
        }
      </QueryState>
    </Page>
  );
}

function OrderCard(props: { order: Order; outcome: Outcome | null; onOutcome: (ok: boolean, text: string) => void }) {
  const { order } = props;
  const [sequencerState, setSequencer] = useMutation(SetSequencerDocument);
  const [monitorState, setMonitors] = useMutation(SetMonitorsDocument);
  // A switch being changed shows its new position until the service answers; a refusal puts it back.
  const [pending, setPending] = useState<Partial<Record<Monitor, boolean>>>({});
  // Fresh data from the service replaces every shown-while-waiting position.
  useEffect(() => setPending({}), [order]);
  const headingId = `order-${order.orderId}`;
  const current = order.sequencer ?? 'none';
  // The select is saved with its button, so arrowing through the options does not change the order.
  const [chosen, setChosen] = useState(current);

  async function changeSequencer(value: string) {
    const choice = SEQUENCER_CHOICES.find((c) => c.value === value);
    if (!choice || choice.value === current) return;
    const answer = await setSequencer({ subscriptionId: order.subscriptionId, input: { sequencer: choice.value } });
    if (answer.error) props.onOutcome(false, errorSentence(answer.error) ?? 'The sequencer was not changed.');
    else
      props.onOutcome(
        true,
        choice.value === 'none'
          ? `Order ${order.reference} is no longer connected to a sending tool.`
          : `Order ${order.reference} now connects to ${choice.label}.`,
      );
  }

  async function changeMonitor(monitor: (typeof MONITORS)[number], on: boolean) {
    setPending((p) => ({ ...p, [monitor.key]: on }));
    const answer = await setMonitors({ subscriptionId: order.subscriptionId, input: { [monitor.key]: on } });
    if (answer.error) {
      setPending((p) => ({ ...p, [monitor.key]: undefined }));
      props.onOutcome(false, errorSentence(answer.error) ?? 'The switch was not changed.');
    } else props.onOutcome(true, `${monitor.label} is ${on ? 'on' : 'off'} for order ${order.reference}.`);
  }

  const stored: Record<Monitor, boolean> = { deliverability: order.monitorDeliverability, reconnection: order.monitorReconnection };
  return (
    <section className="card order-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        Order {order.reference} · {order.product} <Chip value={order.status} />
      </h2>
      <dl className="facts">
        <Fact term="Domains">{order.domainCount}</Fact>
        <Fact term="Mailboxes">{order.mailboxCount}</Fact>
        <Fact term="Renewal">
          {formatMoney(order.renewalTotal, order.currency)} / {order.interval}
        </Fact>
        <Fact term="Placed">{formatDate(order.createdAt)}</Fact>
      </dl>
      <fieldset className="order-settings" aria-busy={sequencerState.fetching || monitorState.fetching}>
        <legend>Settings for order {order.reference}</legend>
        <form
          className="sequencer-form"
          onSubmit={(e) => {
            e.preventDefault();
            void changeSequencer(chosen);
          }}
        >
          <SelectField
            label="Sequencer (sending tool)"
            value={chosen}
            onChange={(e) => setChosen(SEQUENCER_CHOICES.find((c) => c.value === e.target.value)?.value ?? current)}
            options={SEQUENCER_CHOICES.map((c) => ({ value: c.value, label: c.label }))}
          />
          <button type="submit" disabled={chosen === current || sequencerState.fetching}>
            Save sequencer
          </button>
        </form>
        <div className="switches">
          {MONITORS.map((monitor) => (
            <Switch
              key={monitor.key}
              label={monitor.label}
              hint={monitor.hint}
              checked={pending[monitor.key] ?? stored[monitor.key]}
              onChange={(on) => void changeMonitor(monitor, on)}
            />
          ))}
        </div>
      </fieldset>
      {order.status === 'cancelled' ? <ReinstateOrder order={order} onOutcome={props.onOutcome} /> : null}
      <p>
        <Link href={`/mailboxes#${mailboxesOrderId(order.reference)}`}>Mailboxes of order {order.reference}, with their credentials and export</Link>
      </p>
      {props.outcome ? props.outcome.ok ? <Notice tone="ok">{props.outcome.text}</Notice> : <ErrorBanner message={props.outcome.text} /> : null}
    </section>
  );
}

/**
 * "Reinstate" on a cancelled order's card: asks first (it charges the card on file now), then runs the
 * GraphQL mutation reinstateOrder. One Idempotency-Key per confirmation, so a double click or a retry
 * after a lost answer charges once. A refusal (past the grace period, a declined card) is shown as the
 * service words it.
 */
function ReinstateOrder(props: { order: Order; onOutcome: (ok: boolean, text: string) => void }) {
  const { order } = props;
  const [confirming, setConfirming] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [state, reinstate] = useMutation(ReinstateOrderDocument);
  const inFlight = useRef(false);
  const confirm = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      const answer = await reinstate({ orderId: order.orderId, idempotencyKey });
      setConfirming(false);
      const done = answer.data?.reinstateOrder;
      if (!done) {
        props.onOutcome(false, errorSentence(answer.error) ?? `Order ${order.reference} was not reinstated; try again.`);
        return;
      }
      // The next confirmation is a new request.
      setIdempotencyKey(newIdempotencyKey());
      props.onOutcome(
        true,
        `Order ${done.reference} is reinstated: ${formatMoney(done.charged.amount, done.charged.currency)} was charged to your card, and its ${done.mailboxesToReactivate} suspended ${done.mailboxesToReactivate === 1 ? 'mailbox is' : 'mailboxes are'} being taken up again.`,
      );
    } finally {
      inFlight.current = false;
    }
  };
  return (
    <div className="reinstate">
      {confirming ? (
        <p className="reinstate-confirm">
          <span>
            Reinstate order {order.reference}? A new subscription starts and {formatMoney(order.renewalTotal, order.currency)} is charged to your card now; its
            mailboxes are taken up again.
          </span>{' '}
          <ConfirmButtons
            confirmLabel="Yes, reinstate and charge"
            busy={state.fetching}
            onConfirm={() => void confirm()}
            onCancel={() => setConfirming(false)}
          />
        </p>
      ) : (
        <p>
          <button type="button" aria-label={`Reinstate order ${order.reference}`} onClick={() => setConfirming(true)}>
            Reinstate
          </button>{' '}
          <span className="hint">Cancelled orders can be reinstated within 30 days of their cancellation; the mailboxes are kept until then.</span>
        </p>
      )}
    </div>
  );
}

function Fact(props: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/**
 * An on/off switch: a real checkbox (Space toggles it; announced as a switch with its state), drawn
 * as a track and knob by CSS, with "On"/"Off" written beside it so colour is not the only signal.
 */
function Switch(props: { label: string; hint: string; checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="switch">
      <input id={id} type="checkbox" role="switch" aria-describedby={`${id}-hint`} checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <div>
        <label htmlFor={id}>{props.label}</label>{' '}
        <span className="switch-state" aria-hidden="true">
          {props.checked ? 'On' : 'Off'}
        </span>
        <small id={`${id}-hint`} className="hint">
          {props.hint}
        </small>
      </div>
    </div>
  );
}

/**
 * The order's active mailboxes with their passwords as a CSV file in a sequencer's import columns.
 * Each export is recorded as a credentials reveal (the account's people are told).
 */
export function ExportButtons(props: { subscriptionId: string; reference: string; sequencer: string }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const download = async (format: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await client.query(OrderExportDocument, { subscriptionId: props.subscriptionId, format }, { requestPolicy: 'network-only' }).toPromise();
      const csv = answer.data?.orderExport;
      if (csv === undefined) {
        setError(errorSentence(answer.error) ?? 'The export could not be made; try again.');
        return;
      }
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${props.reference}-mailboxes-${format}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="export" role="group" aria-labelledby={headingId}>
      <h3 id={headingId}>Export mailboxes with their passwords (CSV)</h3>
      <div className="toolbar">
        {exportFormatsFor(props.sequencer).map((f) => (
          <button
            key={f.value}
            type="button"
            className={f.value === props.sequencer ? 'primary' : undefined}
            disabled={busy}
            onClick={() => void download(f.value)}
          >
            {f.label}
            {f.value === props.sequencer ? <span className="sr-only"> (your sequencer)</span> : null}
          </button>
        ))}
      </div>
      {error ? (
        <p role="alert" className="banner banner-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
