import { useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { SentOrder } from './order-draft';
import { refusalOf, type PreviewState } from './preview-result';

const OrderPreviewDocument = graphql(`
  query OrderPreview($order: OrderInput!) {
    previewOrder(order: $order) {
      ok sku product domains mailboxes quantity
      price { unitAmount currency interval mailboxesPerUnit total firstInvoice }
      discount { code percentOff amountOff duration durationInMonths appliesTo amount description }
      problems { domain index issues { severity code field message } }
    }
  }
`);

/** How long the preview waits after the last keystroke before asking the service. */
const DEBOUNCE_MS = 450;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export interface OrderPreviewHandle {
  /** The last answer the service gave (kept on screen while the next one is on its way). */
  readonly state: PreviewState;
  /** A preview is on its way, or the person has typed since the last one. */
  readonly checking: boolean;
  /** The answer on screen is for exactly the order as it stands now. */
  readonly current: boolean;
  /** Asks again for the same order (after publishing a DNS record, say). */
  readonly recheck: () => void;
}

/**
 * The live preview: `previewOrder` for the order as typed, debounced, never from the cache (its
 * checks read DNS live, and the service remembers the price it showed for the placing step).
 */
export function useOrderPreview(sent: SentOrder, active: boolean): OrderPreviewHandle {
  const typed = JSON.stringify(sent.input);
  const asked = useDebounced(typed, DEBOUNCE_MS);
  const hasDomains = sent.input.domains.length > 0;
  const [result, reexecute] = useQuery({
    query: OrderPreviewDocument,
    variables: { order: JSON.parse(asked) as SentOrder['input'] },
    pause: !active || !hasDomains,
    requestPolicy: 'network-only',
  });
  const answeredFor = result.operation ? JSON.stringify(result.operation.variables.order) : null;
  const last = useRef<{ state: PreviewState; forOrder: string | null }>({ state: { kind: 'empty' }, forOrder: null });
  if (!result.fetching && answeredFor !== null) {
    if (result.data) last.current = { state: { kind: 'priced', preview: result.data.previewOrder }, forOrder: answeredFor };
    else if (result.error) last.current = { state: refusalOf(result.error), forOrder: answeredFor };
  }
  if (!hasDomains) return { state: { kind: 'empty' }, checking: false, current: false, recheck: () => undefined };
  const current = !result.fetching && last.current.forOrder === typed;
  return {
    state: last.current.forOrder === null ? { kind: 'checking' } : last.current.state,
    checking: result.fetching || asked !== typed,
    current,
    recheck: () => reexecute({ requestPolicy: 'network-only' }),
  };
}
