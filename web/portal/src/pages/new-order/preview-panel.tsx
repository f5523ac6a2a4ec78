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
            {state.problems.length > 0 ? problemsSentence(state.problems, props.rows) : state.detail}
          </p>
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
          <p className="hint">
            The order can be placed, but read the {preview.problems.length === 1 ? 'warning' : 'warnings'} shown under{' '}
            {domainNames(preview.problems, props.rows)} first.
          </p>
        </>
      ) : null}
    </>
  );
}

/** "domain 2 (b.com)" and "domains 1 and 3": where the problems are, as the rows are numbered. */
function domainNames(problems: readonly { readonly index: number }[], rows: readonly number[]): string {
  const numbers = [...new Set(problems.map((g) => rows[g.index]).filter((r): r is number => r !== undefined))].map((r) => r + 1);
  if (numbers.length === 0) return 'the domains';
  if (numbers.length === 1) return `domain ${numbers[0]}`;
  return `domains ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/** The refusal in the portal's words: how many problems, and where they are shown. */
function problemsSentence(problems: readonly PreviewProblems[], rows: readonly number[]): string {
  const count = problems.reduce((n, g) => n + g.issues.filter((i) => i.severity === 'error').length, 0);
  const what = count === 1 ? 'one problem to fix' : `${count} problems to fix`;
  return `This order cannot be placed yet: ${what}, shown under ${domainNames(problems, rows)}. Fix ${count === 1 ? 'it' : 'them'} and the preview checks again.`;
}

/** One domain's issues, shown under its row: sentences, and the record to publish when it is not proved yours. */
export function DomainIssues(props: { problems: PreviewProblems; label: string; withRecords: boolean }) {
  return (
    <ul className="domain-problems row-problems" aria-label={props.label}>
      {props.problems.issues.map((issue, n) => (
        <li key={`${issue.code}-${n}`} className={`issue issue-${issue.severity === 'error' ? 'error' : 'warning'}`}>
          <strong>{issue.severity === 'error' ? 'Must fix:' : 'Warning:'}</strong> {issue.message}
          {issue.record && props.withRecords ? (
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
  );
}

/** Every issue, grouped by domain (the review step, where the rows are not on screen). */
export function ProblemList(props: { problems: readonly PreviewProblems[]; rows: readonly number[] }) {
  if (props.problems.length === 0) return null;
  return (
    <div className="problem-groups">
      {props.problems.map((group) => {
        const row = props.rows[group.index];
        const name = row === undefined ? group.domain : `Domain ${row + 1}: ${group.domain}`;
        return (
          <div key={`${group.index}-${group.domain}`}>
            <h4>{name}</h4>
            <DomainIssues problems={group} label={`Problems with ${name}`} withRecords />
          </div>
        );
      })}
    </div>
  );
}
