import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { NewOrderSetupQuery } from '../gql/graphql';
import { Page } from '../ui/page';
import { Notice, QueryState } from '../ui/status';
import { useViewer } from '../session';
import { blankDraft, loadDraft, saveDraft, toOrderInput, type OrderDraft } from './new-order/order-draft';
import { useOrderPreview } from './new-order/use-order-preview';
import { PlanStep } from './new-order/plan-step';
import { DomainsStep } from './new-order/domains-step';
import { PlacedView, ReviewStep, type PlacedOrder } from './new-order/review-step';

const NewOrderSetupDocument = graphql(`
  query NewOrderSetup {
    catalogue { sku product description unitAmount currency interval mailboxesPerUnit orderable whyNot }
    paymentMethod { onFile brand last4 expMonth expYear }
    people { email role }
  }
`);

type Step = 'plan' | 'domains' | 'review';
const STEPS: readonly { readonly step: Step; readonly label: string }[] = [
  { step: 'plan', label: 'Plan' },
  { step: 'domains', label: 'Domains and mailboxes' },
  { step: 'review', label: 'Review and place' },
];

/**
 * The new-order wizard (SPEC 4.2): a plan, then domains and mailboxes with a live preview, then a
 * review stating the charge before `placeOrder` runs with its own Idempotency-Key.
 */
export function NewOrderPage() {
  const [setup, refetch] = useQuery({ query: NewOrderSetupDocument });
  return (
    <Page title="New order">
      <QueryState {...setup}>{(data) => <Wizard setup={data} recheckCard={() => refetch({ requestPolicy: 'network-only' })} />}</QueryState>
    </Page>
  );
}

/**
 * Placing an order needs orders:place, which only owners hold (docs/people.md): a member learns it
 * here, before building anything, with the owners to ask.
 */
function OwnersPlaceOrders(props: { people: NewOrderSetupQuery['people'] }) {
  const { viewer } = useViewer();
  if (viewer.role === 'owner') return null;
  const owners = props.people.filter((p) => p.role === 'owner');
  return (
    <Notice tone="info">
      <strong>An owner places orders.</strong> You are a member of {viewer.accountName}: you can build an order here and see its price, but placing it (which
      charges the card) is for an owner.{' '}
      {owners.length > 0 ? (
        <>
          Ask {owners.length === 1 ? 'the owner' : 'an owner'}:{' '}
          {owners.map((o, i) => (
            <span key={o.email}>
              {i > 0 ? ', ' : ''}
              <a href={`mailto:${o.email}?subject=${encodeURIComponent('Please place an order')}`}>{o.email}</a>
            </span>
          ))}
          , or to make you an owner in Settings, People.
        </>
      ) : (
        'Ask an owner of the account to place it, or to make you an owner.'
      )}
    </Notice>
  );
}

function Wizard(props: { setup: NewOrderSetupQuery; recheckCard: () => void }) {
  const { catalogue, paymentMethod } = props.setup;
  const { viewer } = useViewer();
  const orderable = catalogue.filter((p) => p.orderable);
  const [restored] = useState(loadDraft);
  // A draft kept from earlier in this tab opens on its domains (the review asks to confirm afresh).
  const [step, setStep] = useState<Step>(restored?.sku && orderable.some((p) => p.sku === restored.sku) ? 'domains' : 'plan');
  const [draft, setDraft] = useState<OrderDraft>(() => restored ?? blankDraft(orderable.length === 1 ? orderable[0]!.sku : ''));
  const [placed, setPlaced] = useState<PlacedOrder | null>(null);
  const [placedDomains, setPlacedDomains] = useState<readonly string[]>([]);
  const sent = useMemo(() => toOrderInput(draft), [draft]);
  useEffect(() => saveDraft(placed ? null : draft), [draft, placed]);
  const preview = useOrderPreview(sent, placed === null && step !== 'plan');
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  // Moving between steps puts focus on the step's heading, so a screen reader says where one is.
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step, placed]);

  const go = (next: Step) => {
    if (next === 'review') props.recheckCard();
    setStep(next);
  };

  if (placed) {
    return (
      <PlacedView
        order={placed}
        domains={placedDomains}
        onAnother={() => {
          setPlaced(null);
          setDraft(blankDraft(draft.sku));
          setStep('plan');
        }}
      />
    );
  }
  const index = STEPS.findIndex((s) => s.step === step);
  return (
    <div className="wizard">
      <OwnersPlaceOrders people={props.setup.people} />
      {!paymentMethod.onFile && viewer.role === 'owner' ? (
        <Notice tone="warn">
          No card is on file. You can build and preview an order, but placing it charges a card: <Link href="/billing">add a card on the Billing page</Link>.
        </Notice>
      ) : null}
      <ol className="wizard-steps" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s.step} aria-current={i === index ? 'step' : undefined} className={i < index ? 'done' : i === index ? 'current' : ''}>
            {i < index ? (
              <button type="button" className="link-button" onClick={() => go(s.step)}>
                {i + 1}. {s.label}
              </button>
            ) : (
              <span>
                {i + 1}. {s.label}
              </span>
            )}
          </li>
        ))}
      </ol>
      <h2 ref={heading} tabIndex={-1} className="step-title">
        Step {index + 1} of {STEPS.length}: {STEPS[index]!.label}
      </h2>
      {step === 'plan' ? (
        <PlanStep catalogue={catalogue} sku={draft.sku} onPick={(sku) => setDraft((d) => ({ ...d, sku }))} onNext={() => go('domains')} />
      ) : null}
      {step === 'domains' ? (
        <DomainsStep draft={draft} setDraft={setDraft} preview={preview} rows={sent.rows} onBack={() => go('plan')} onNext={() => go('review')} />
      ) : null}
      {step === 'review' && preview.state.kind === 'priced' ? (
        <ReviewStep
          sent={sent}
          preview={preview.state.preview}
          card={paymentMethod}
          onRecheckCard={props.recheckCard}
          onBack={() => go('domains')}
          onPlaced={(order) => {
            setPlacedDomains(sent.input.domains.map((d) => d.domain.trim().toLowerCase()));
            setPlaced(order);
          }}
        />
      ) : null}
      {step === 'review' && preview.state.kind !== 'priced' ? (
        <p>
          The preview changed;{' '}
          <button type="button" className="link-button" onClick={() => go('domains')}>
            go back to the domains
          </button>{' '}
          to see why.
        </p>
      ) : null}
    </div>
  );
}
