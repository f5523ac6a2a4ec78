import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ShowMore, usePagedQuery } from '../ui/paged-query';
import type { WebhooksQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { EVENT_TYPES } from '../../../../resolvers/events/event-types';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Field } from '../ui/field';
import { Chip } from '../ui/chip';
import { formatDateTime } from '../ui/format';
import { ConfirmButtons } from '../ui/confirm-buttons';

const WebhooksDocument = graphql(`
  query Webhooks {
    webhooks { webhookId url description events createdAt }
  }
`);

const CreateWebhookDocument = graphql(`
  mutation CreateWebhook($input: WebhookInput!) {
    createWebhook(input: $input) { webhookId url events secret }
  }
`);

const DeleteWebhookDocument = graphql(`
  mutation DeleteWebhook($webhookId: Int!) {
    deleteWebhook(webhookId: $webhookId) { webhookId deleted }
  }
`);

const SendTestWebhookDocument = graphql(`
  mutation SendTestWebhook($webhookId: Int!) {
    sendTestWebhook(webhookId: $webhookId) { deliveryId eventId status }
  }
`);

const WebhookDeliveriesDocument = graphql(`
  query WebhookDeliveries($webhookId: Int!, $first: Int!, $after: String) {
    webhookDeliveriesConnection(webhookId: $webhookId, first: $first, after: $after) {
      nodes {
        deliveryId eventId eventType status createdAt deliveredAt nextAttemptAt
        attempts { attempt at statusCode durationMs error }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

type Endpoint = WebhooksQuery['webhooks'][number];

/**
 * Settings → webhooks: the endpoints events are posted to (signed, retried for a day), made here or
 * through /v1/webhooks. The signing secret is shown once, in the answer that creates the endpoint.
 */
export function WebhooksSection() {
  const [result, refetch] = useQuery({ query: WebhooksDocument });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section className="card settings-section" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p className="aside">
        Events (an order placed, a domain live or needing attention, listed or delisted, a monitoring change, an invoice past due) are posted to these
        addresses, signed with the endpoint's secret in the Webhook-Signature header and retried for a day.
      </p>
      <CreateWebhookForm onCreated={refresh} />
      <QueryState {...result}>
        {(data) => (data.webhooks.length === 0 ? <p>No endpoints yet.</p> : <EndpointList endpoints={data.webhooks} onChanged={refresh} />)}
      </QueryState>
    </section>
  );
}

function CreateWebhookForm(props: { onCreated: () => void }) {
  const [creating, create] = useMutation(CreateWebhookDocument);
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<{ url: string; secret: string } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const description = String(form.get('description') ?? '').trim();
    setError(null);
    const answer = await create({
      input: { url: String(form.get('url') ?? '').trim(), events: chosen.length === 0 ? ['*'] : [...chosen], ...(description ? { description } : {}) },
    });
    if (answer.data) {
      setMade({ url: answer.data.createWebhook.url, secret: answer.data.createWebhook.secret ?? '' });
      setChosen([]);
      formElement.reset();
      props.onCreated();
    } else {
      setError(errorSentence(answer.error) ?? 'The endpoint was not added.');
    }
  };
  const toggle = (type: string, on: boolean) => setChosen(on ? [...chosen, type] : chosen.filter((t) => t !== type));
  return (
    <form className="narrow-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-webhook-heading">
      <h3 id="new-webhook-heading">Add an endpoint</h3>
      <ErrorBanner message={error} />
      {made ? (
        <div className="new-key" role="region" aria-label="The new endpoint's signing secret">
          <p className="banner banner-warn">
            <strong>Copy the signing secret now: it is shown this once.</strong> Events to {made.url} are signed with it.
          </p>
          <label htmlFor="webhook-secret">Signing secret</label>
          <textarea id="webhook-secret" className="secret" readOnly rows={2} value={made.secret} spellCheck={false} onFocus={(e) => e.target.select()} />
          <button type="button" onClick={() => setMade(null)}>
            I have stored it
          </button>
        </div>
      ) : null}
      <Field label="Address" name="url" type="url" required placeholder="https://example.com/hooks/inbox" hint="An https:// address on the public internet." />
      <Field label="Description (optional)" name="description" maxLength={200} />
      <fieldset className="scopes">
        <legend>Events</legend>
        <p className="hint">None ticked: every event, including kinds added later.</p>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input type="checkbox" checked={chosen.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="primary" disabled={creating.fetching}>
        {creating.fetching ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}

function EndpointList(props: { endpoints: readonly Endpoint[]; onChanged: () => void }) {
  return (
    <ul className="webhook-list">
      {props.endpoints.map((endpoint) => (
        <EndpointItem key={endpoint.webhookId} endpoint={endpoint} onChanged={props.onChanged} />
      ))}
    </ul>
  );
}

function EndpointItem(props: { endpoint: Endpoint; onChanged: () => void }) {
  const { endpoint } = props;
  const [deleting, remove] = useMutation(DeleteWebhookDocument);
  const [asking, setAsking] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [testing, sendTest] = useMutation(SendTestWebhookDocument);
  const [sent, setSent] = useState<string | null>(null);
  // Bumped after a test is sent, so the deliveries list asks again and shows it.
  const [sentCount, setSentCount] = useState(0);
  const sendTestEvent = async () => {
    setMessage(null);
    setSent(null);
    const answer = await sendTest({ webhookId: endpoint.webhookId });
    if (answer.error) {
      setMessage(errorSentence(answer.error));
      return;
    }
    setSent(`A test event is on its way to ${endpoint.url}. Its delivery is listed below: refresh with "Show deliveries" to see how it went.`);
    setShowDeliveries(true);
    setSentCount((n) => n + 1);
  };
  const confirmDelete = async () => {
    const answer = await remove({ webhookId: endpoint.webhookId });
    if (answer.error) setMessage(errorSentence(answer.error));
    else props.onChanged();
  };
  return (
    <li className="webhook">
      <p>
        <strong className="webhook-url">{endpoint.url}</strong>
        {endpoint.description ? <span className="hint"> · {endpoint.description}</span> : null}
      </p>
      <p className="hint">
        {endpoint.events.includes('*') ? 'Every event' : endpoint.events.join(', ')} · added {formatDateTime(endpoint.createdAt)}
      </p>
      <ErrorBanner message={message} />
      {sent ? <Notice tone="ok">{sent}</Notice> : null}
      <div className="toolbar">
        <button type="button" aria-expanded={showDeliveries} onClick={() => setShowDeliveries(!showDeliveries)}>
          {showDeliveries ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <button type="button" disabled={testing.fetching} onClick={() => void sendTestEvent()}>
          {testing.fetching ? 'Sending…' : 'Send test event'}
          <span className="sr-only"> to {endpoint.url}</span>
        </button>
        {asking ? (
          <ConfirmButtons
            confirmLabel={`Yes, delete ${endpoint.url}`}
            busy={deleting.fetching}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setAsking(false)}
          />
        ) : (
          <button type="button" className="danger" onClick={() => setAsking(true)}>
            Delete
          </button>
        )}
      </div>
      {showDeliveries ? <Deliveries key={sentCount} webhookId={endpoint.webhookId} /> : null}
    </li>
  );
}

function Deliveries(props: { webhookId: number }) {
  const paged = usePagedQuery({
    query: WebhookDeliveriesDocument,
    variables: { webhookId: props.webhookId, first: 20 },
    pageInfo: (d) => d.webhookDeliveriesConnection.pageInfo,
    requestPolicy: 'network-only',
  });
  const result = paged.first;
  const deliveries = paged.pages.flatMap((p) => p.webhookDeliveriesConnection.nodes);
  return (
    <QueryState {...result}>
      {() =>
        deliveries.length === 0 ? (
          <Notice>No event has been sent to this endpoint yet.</Notice>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Deliveries to this endpoint</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.deliveryId}>
                    <td>
                      <code>{d.eventType}</code>
                      <div className="hint">{d.eventId}</div>
                    </td>
                    <td>
                      <Chip value={d.status === 'failed' ? 'suspended' : d.status === 'delivered' ? 'live' : 'queued'} label={d.status} />
                      {d.nextAttemptAt ? <div className="hint">next try {formatDateTime(d.nextAttemptAt)}</div> : null}
                    </td>
                    <td>
                      {d.attempts.map((a) => (
                        <div key={a.attempt} className="hint">
                          #{a.attempt} {a.statusCode ?? 'no answer'}
                          {a.error ? `: ${a.error}` : ''} ({a.durationMs} ms)
                        </div>
                      ))}
                    </td>
                    <td>{formatDateTime(d.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ShowMore
              label="Show older deliveries"
              hasNextPage={paged.hasNextPage}
              loading={paged.loading}
              error={paged.error}
              onClick={() => void paged.loadMore()}
            />
          </div>
        )
      }
    </QueryState>
  );
}
