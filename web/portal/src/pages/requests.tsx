import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { RequestsQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { Field, SelectField } from '../ui/field';
import { formatDate, formatDateTime } from '../ui/format';
// The service's own list of kinds (the one the resolver checks against), so the select never offers a
// kind the service would refuse nor misses one it accepts.
import { isRequestKind, REQUEST_KINDS, type RequestKind } from '../../../../resolvers/changes/request-kinds';

const RequestsDocument = graphql(`
  query Requests {
    requests {
      requestId subscriptionId kind summary forwardTo status createdAt
      replies { author body createdAt }
    }
    orders { subscriptionId reference product status }
  }
`);

const RaiseRequestDocument = graphql(`
  mutation RaiseRequest($input: RaiseRequestInput!) {
    raiseRequest(input: $input) {
      domainsRepointed
      request { requestId status replies { body } }
    }
  }
`);

type Order = RequestsQuery['orders'][number];
type ChangeRequest = RequestsQuery['requests'][number];

const KINDS: RequestKind[] = Object.keys(REQUEST_KINDS).filter(isRequestKind);
const kindLabel = (kind: string) => kind.replaceAll('_', ' ');

/** Change requests: raise one against an order, and read every request's replies. */
export function RequestsPage() {
  const [result, reexecute] = useQuery({ query: RequestsDocument });
  return (
    <Page title="Change requests">
      <QueryState {...result}>
        {(data) => (
          <>
            <RaiseForm orders={data.orders} onRaised={() => reexecute({ requestPolicy: 'network-only' })} />
            <RequestList requests={data.requests} orders={data.orders} />
          </>
        )}
      </QueryState>
    </Page>
  );
}

function RaiseForm(props: { orders: readonly Order[]; onRaised: () => void }) {
  const [state, raise] = useMutation(RaiseRequestDocument);
  const [kind, setKind] = useState<RequestKind>('other');
  const [raised, setRaised] = useState<string | null>(null);
  const summaryId = useId();
  if (props.orders.length === 0) return <p>Change requests are made against an order; you have none yet.</p>;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setRaised(null);
    const forwardTo = String(data.get('forwardTo') ?? '').trim();
    const answer = await raise({
      input: {
        subscriptionId: String(data.get('subscriptionId')),
        kind,
        summary: String(data.get('summary') ?? ''),
        ...(kind === 'forwarding' ? { forwardTo } : {}),
      },
    });
    const request = answer.data?.raiseRequest.request;
    if (!request) return;
    setRaised(`Request #${request.requestId} raised. ${request.replies[0]?.body ?? ''}`.trim());
    form.reset();
    setKind('other');
    props.onRaised();
  };
  return (
    <form className="card card-titled request-form" aria-labelledby="raise-heading" onSubmit={(event) => void submit(event)}>
      <h2 id="raise-heading">Raise a request</h2>
      {raised ? <Notice tone="ok">{raised}</Notice> : null}
      <ErrorBanner message={errorSentence(state.error)} />
      <SelectField
        label="Order"
        name="subscriptionId"
        required
        options={props.orders.map((o) => ({ value: o.subscriptionId, label: `${o.reference} · ${o.product} (${o.status.replaceAll('_', ' ')})` }))}
      />
      <SelectField
        label="Kind"
        name="kind"
        value={kind}
        onChange={(e) => {
          if (isRequestKind(e.target.value)) setKind(e.target.value);
        }}
        aria-describedby="kind-hint"
        options={KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
      />
      <p id="kind-hint" className="hint request-kind-hint">
        {REQUEST_KINDS[kind]}
      </p>
      {kind === 'forwarding' ? (
        <Field
          label="Forward to"
          name="forwardTo"
          required
          placeholder="example.com"
          autoComplete="off"
          hint="The domain every domain of the order should forward to; applied at once."
        />
      ) : null}
      <div className="field">
        <label htmlFor={summaryId}>What to change</label>
        <textarea id={summaryId} name="summary" required maxLength={2000} aria-describedby={`${summaryId}-hint`} />
        <small id={`${summaryId}-hint`} className="hint">
          One or two sentences, at most 2,000 characters.
        </small>
      </div>
      <button type="submit" className="primary" disabled={state.fetching}>
        {state.fetching ? 'Raising…' : 'Raise request'}
      </button>
    </form>
  );
}

function RequestList(props: { requests: readonly ChangeRequest[]; orders: readonly Order[] }) {
  const orderName = (subscriptionId: string) => props.orders.find((o) => o.subscriptionId === subscriptionId)?.reference ?? subscriptionId;
  return (
    <section aria-labelledby="requests-heading">
      <h2 id="requests-heading">Your requests</h2>
      {props.requests.length === 0 ? (
        <p>No requests yet.</p>
      ) : (
        <ol className="request-list">
          {props.requests.map((r) => (
            <li key={r.requestId} className="card request">
              <h3 className="request-title">
                #{r.requestId} · {kindLabel(r.kind)} · order {orderName(r.subscriptionId)} <Chip value={r.status} />
              </h3>
              <p className="aside">Raised {formatDate(r.createdAt)}</p>
              <p className="request-summary">{r.summary}</p>
              {r.forwardTo ? <p className="aside">Forward to {r.forwardTo}</p> : null}
              {r.replies.length === 0 ? (
                <p className="hint">No reply yet.</p>
              ) : (
                <ul className="replies" aria-label={`Replies to request ${r.requestId}`}>
                  {r.replies.map((reply, i) => (
                    <li key={i} className="reply">
                      <span className="reply-meta">
                        {reply.author}, {formatDateTime(reply.createdAt)}
                      </span>
                      <span>{reply.body}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
