import { Link } from 'wouter';
import { formatMoney } from '../../ui/format';
import type { OrderPreviewHandle } from './use-order-preview';
import type { Preview, PreviewProblems } from './preview-result';

const INTERVAL_WORD: Record<string, string> = { month: 'month', year: 'year', week: 'week', day: 'day' };
export const perInterval = (interval: string) => `a ${INTERVAL_WORD[interval] ?? interval}`;

/** The live preview beside the domains: price and first invoice, or the problems by domain. */
export function PreviewPanel(props: { preview: OrderPreviewHandle; rows: readonly number[] }) {
  const { state, checking } = props.preview;
  return (
    <section className="card order-preview" aria-labelledby="order-preview-title">
      <div className="order-preview-head">
        <h3 id="order-preview-title">Preview</h3>
        <span className="hint" role="status">
          {checking ? 'Checking…' : state.kind === 'empty' ? '' : 'Up to date'}
        </span>
      </div>
      {state.kind === 'empty' ? <p className="hint">Type a domain and its mailboxes to see the price and any problems.</p> : null}
      {state.kind === 'checking' ? <p className="hint">Asking the service for a price…</p> : null}
      {state.kind === 'priced' ? <PricedOrder preview={state.preview} rows={props.rows} /> : null}
      {state.kind === 'refused' ? (
        <>
          <p role="alert" className="banner banner-error">
            {state.detail}
          </p>
          <ProblemList problems={state.problems} rows={props.rows} />
        </>
      ) : null}
      {state.kind === 'priced' || state.kind === 'refused' ? (
        <button type="button" onClick={() => props.preview.recheck()} disabled={checking}>
          Check again
        </button>
      ) : null}
    </section>
  );
}

function PricedOrder(props: { preview: Preview; rows: readonly number[] }) {
  const { preview } = props;
  const { price, discount } = preview;
  const money = (minor: number) => formatMoney(minor, price.currency);
  return (
    <>
      <dl className="price-list">
        <div>
          <dt>Plan</dt>
          <dd>{preview.product}</dd>
        </div>
        <div>
          <dt>Order</dt>
          <dd>
            {preview.domains} {preview.domains === 1 ? 'domain' : 'domains'}, {preview.mailboxes} {preview.mailboxes === 1 ? 'mailbox' : 'mailboxes'}
          </dd>
        </div>
        <div>
          <dt>Units</dt>
          <dd>
            {preview.quantity} × {money(price.unitAmount)}
            {price.mailboxesPerUnit > 1 ? ` (a unit is ${price.mailboxesPerUnit} mailboxes)` : ''}
          </dd>
        </div>
        {discount ? (
          <div>
            <dt>Promotion {discount.code}</dt>
            <dd>
              {discount.description} (−{money(discount.amount)} on the first invoice)
            </dd>
          </div>
        ) : null}
        <div className="price-total">
          <dt>First invoice</dt>
          <dd data-testid="first-invoice">{money(price.firstInvoice)}</dd>
        </div>
        <div>
          <dt>Then</dt>
          <dd data-testid="renewal">
            {money(price.total)} {perInterval(price.interval)}
          </dd>
        </div>
      </dl>
      {preview.problems.length > 0 ? (
        <>
          <p className="hint">Warnings: the order can be placed, but read these first.</p>
          <ProblemList problems={preview.problems.map((p) => ({ ...p, issues: p.issues.map((i) => ({ ...i, record: null })) }))} rows={props.rows} />
        </>
      ) : null}
    </>
  );
}

/** Every issue, grouped by domain, with the record to publish when a domain is not proved yours. */
export function ProblemList(props: { problems: readonly PreviewProblems[]; rows: readonly number[] }) {
  if (props.problems.length === 0) return null;
  return (
    <ul className="domain-problems" aria-label="Problems by domain">
      {props.problems.map((group) => {
        const row = props.rows[group.index];
        return (
          <li key={`${group.index}-${group.domain}`}>
            <h4>{row === undefined ? group.domain : `Domain ${row + 1}: ${group.domain}`}</h4>
            <ul>
              {group.issues.map((issue, n) => (
                <li key={`${issue.code}-${n}`} className={`issue issue-${issue.severity === 'error' ? 'error' : 'warning'}`}>
                  <strong>{issue.severity === 'error' ? 'Must fix:' : 'Warning:'}</strong> {issue.message}
                  {issue.record ? (
                    <div className="record">
                      <p>Publish this record at your DNS provider, then choose “Check again”:</p>
                      <dl>
                        <div>
                          <dt>Name</dt>
                          <dd>
                            <code>{issue.record.name}</code>
                          </dd>
                        </div>
                        <div>
                          <dt>Type</dt>
                          <dd>
                            <code>{issue.record.type}</code>
                          </dd>
                        </div>
                        <div>
                          <dt>Value</dt>
                          <dd>
                            <code>{issue.record.value}</code>
                          </dd>
                        </div>
                      </dl>
                      <p>
                        <Link href="/verification">Domain verification</Link> lists your token and the domains already proved.
                      </p>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
