import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { NewOrderSetupQuery } from '../../gql/graphql';
import { errorSentence } from '../../api';
import { ErrorBanner } from '../../ui/status';
import { formatMoney } from '../../ui/format';
import { perInterval } from './preview-panel';

export type CatalogueEntry = NewOrderSetupQuery['catalogue'][number];

export const unitPrice = (plan: CatalogueEntry) =>
  `${formatMoney(plan.unitAmount, plan.currency)} ${perInterval(plan.interval)} for ${plan.mailboxesPerUnit === 1 ? 'each mailbox' : `every ${plan.mailboxesPerUnit} mailboxes`}`;

/** Step 1: a plan from the catalogue; a plan that cannot be ordered here says why (its why_not). */
export function PlanStep(props: { catalogue: readonly CatalogueEntry[]; sku: string; onPick: (sku: string) => void; onNext: () => void }) {
  if (props.catalogue.length === 0)
    return (
      <>
        <p>You are not on a plan yet, so there is nothing to order. Tell us what you need and we will put you on a plan.</p>
        <AskForPlan sku={null} />
      </>
    );
  const chosen = props.catalogue.find((p) => p.sku === props.sku && p.orderable);
  const closed = props.catalogue.filter((p) => !p.orderable);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) props.onNext();
      }}
    >
      <fieldset className="plan-list">
        <legend>Plan</legend>
        {props.catalogue.map((plan) => {
          const id = `plan-${plan.sku}`;
          return (
            <div key={plan.sku} className={`plan${plan.orderable ? '' : ' plan-closed'}`}>
              <input
                type="radio"
                name="plan"
                id={id}
                value={plan.sku}
                checked={props.sku === plan.sku}
                disabled={!plan.orderable}
                onChange={() => props.onPick(plan.sku)}
                aria-describedby={`${id}-about`}
              />
              <label htmlFor={id}>
                <strong>{plan.product}</strong> <span className="plan-price">{unitPrice(plan)}</span>
              </label>
              <div id={`${id}-about`} className="plan-about">
                <span className="hint">{plan.description}</span>
                {plan.orderable ? null : (
                  <span className="plan-why-not">
                    <strong>Not orderable online:</strong> {plan.whyNot ?? 'ask us for it below.'}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </fieldset>
      {closed.length > 0 ? <AskForPlan sku={closed[0]?.sku ?? null} /> : null}
      <div className="wizard-actions">
        <button type="submit" className="primary" disabled={!chosen}>
          Continue to domains
        </button>
      </div>
    </form>
  );
}

const RequestPlanDocument = graphql(`
  mutation RequestPlan($input: PlanRequestInput!) {
    requestPlan(input: $input) { detail }
  }
`);

/** "Ask for a plan": a message to our team, who answer by e-mail and put the account on a plan. */
function AskForPlan(props: { sku: string | null }) {
  const [message, setMessage] = useState('');
  const [state, send] = useMutation(RequestPlanDocument);
  const sent = state.data?.requestPlan.detail ?? null;
  if (sent) return <p role="status">{sent}</p>;
  return (
    <div className="ask-for-plan">
      <label htmlFor="plan-request">What would you like to order?</label>
      <textarea
        id="plan-request"
        rows={3}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        placeholder="For example: 40 pre-warmed Google inboxes a month"
      />
      <ErrorBanner message={errorSentence(state.error)} />
      <button type="button" disabled={state.fetching || message.trim() === ''} onClick={() => void send({ input: { message, sku: props.sku } })}>
        {state.fetching ? 'Sending…' : 'Ask for a plan'}
      </button>
    </div>
  );
}
