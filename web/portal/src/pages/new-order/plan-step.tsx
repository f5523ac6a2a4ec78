import type { NewOrderSetupQuery } from '../../gql/graphql';
import { formatMoney } from '../../ui/format';
import { perInterval } from './preview-panel';

export type CatalogueEntry = NewOrderSetupQuery['catalogue'][number];

export const unitPrice = (plan: CatalogueEntry) =>
  `${formatMoney(plan.unitAmount, plan.currency)} ${perInterval(plan.interval)} for ${plan.mailboxesPerUnit === 1 ? 'each mailbox' : `every ${plan.mailboxesPerUnit} mailboxes`}`;

/** Step 1: a plan from the catalogue; a plan that cannot be ordered here says why (its why_not). */
export function PlanStep(props: { catalogue: readonly CatalogueEntry[]; sku: string; onPick: (sku: string) => void; onNext: () => void }) {
  if (props.catalogue.length === 0) return <p>Your catalogue is empty: ask us to put you on a plan, then order here.</p>;
  const chosen = props.catalogue.find((p) => p.sku === props.sku && p.orderable);
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
                    <strong>Not orderable here:</strong> {plan.whyNot ?? 'this plan is ordered another way.'}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </fieldset>
      <div className="wizard-actions">
        <button type="submit" className="primary" disabled={!chosen}>
          Continue to domains
        </button>
      </div>
    </form>
  );
}
