import { useId, useState, type Dispatch, type SetStateAction } from 'react';
import { Field } from '../../ui/field';
import { ErrorBanner } from '../../ui/status';
import {
  blankDomain,
  blankMailbox,
  copyMailboxes,
  mailboxCount,
  ORDER_LIMITS,
  readDomainLines,
  type NotADomain,
  type DomainDraft,
  type MailboxDraft,
  type OrderDraft,
} from './order-draft';
import { isPromotionRefusal, type PreviewProblems } from './preview-result';
import type { OrderPreviewHandle } from './use-order-preview';
import { DomainIssues, PreviewPanel } from './preview-panel';

const count = (n: number) => n.toLocaleString('en-US');
/** The address a first name suggests, kept in step until the person edits the address themselves. */
const suggestLocalPart = (firstName: string) =>
  firstName
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9._-]/g, '');

/** Step 2: domains with their mailboxes, a promotion code, and the live preview beside them. */
export function DomainsStep(props: {
  draft: OrderDraft;
  setDraft: Dispatch<SetStateAction<OrderDraft>>;
  preview: OrderPreviewHandle;
  rows: readonly number[];
  onBack: () => void;
  onNext: () => void;
}) {
  const { draft, setDraft, preview } = props;
  const [limitMessage, setLimitMessage] = useState<string | null>(null);
  const total = mailboxCount(draft);
  // The preview's problems, each under the domain row it concerns (refusals, or warnings of a priced order).
  const problems: readonly PreviewProblems[] =
    preview.state.kind === 'refused'
      ? preview.state.problems
      : preview.state.kind === 'priced'
        ? preview.state.preview.problems.map((p) => ({ ...p, issues: p.issues.map((i) => ({ ...i, record: null })) }))
        : [];
  const problemsOfRow = (i: number) => problems.filter((g) => props.rows[g.index] === i);

  const setDomain = (key: number, change: (d: DomainDraft) => DomainDraft) =>
    setDraft((d) => ({ ...d, domains: d.domains.map((row) => (row.key === key ? change(row) : row)) }));
  const setMailbox = (domainKey: number, mailboxKey: number, change: (m: MailboxDraft) => MailboxDraft) =>
    setDomain(domainKey, (row) => ({ ...row, mailboxes: row.mailboxes.map((m) => (m.key === mailboxKey ? change(m) : m)) }));

  /** Refuses a change that would break the service's limits, saying so, before it is made. */
  const withinLimits = (domains: number, mailboxes: number): boolean => {
    if (domains > ORDER_LIMITS.domains) {
      setLimitMessage(`That makes ${count(domains)} domains; an order holds at most ${count(ORDER_LIMITS.domains)}. Split them into several orders.`);
      return false;
    }
    if (mailboxes > ORDER_LIMITS.mailboxes) {
      setLimitMessage(`That makes ${count(mailboxes)} mailboxes; an order holds at most ${count(ORDER_LIMITS.mailboxes)}. Split them into several orders.`);
      return false;
    }
    setLimitMessage(null);
    return true;
  };

  const addDomain = () => {
    if (!withinLimits(draft.domains.length + 1, total + 1)) return;
    setDraft((d) => ({ ...d, domains: [...d.domains, blankDomain()] }));
  };
  const removeDomain = (key: number) => {
    setLimitMessage(null);
    setDraft((d) => ({ ...d, domains: d.domains.length > 1 ? d.domains.filter((row) => row.key !== key) : [blankDomain()] }));
  };
  const addMailbox = (key: number) => {
    if (!withinLimits(draft.domains.length, total + 1)) return;
    setDomain(key, (row) => ({ ...row, mailboxes: [...row.mailboxes, blankMailbox()] }));
  };
  const removeMailbox = (domainKey: number, mailboxKey: number) => {
    setLimitMessage(null);
    setDomain(domainKey, (row) => ({ ...row, mailboxes: row.mailboxes.filter((m) => m.key !== mailboxKey) }));
  };
  const copyFirstMailboxes = () => {
    const first = draft.domains[0]!.mailboxes;
    if (!withinLimits(draft.domains.length, first.length * draft.domains.length)) return;
    setDraft((d) => ({ ...d, domains: d.domains.map((row, i) => (i === 0 ? row : { ...row, mailboxes: copyMailboxes(first) })) }));
  };

  return (
    <div className="order-layout">
      <div className="order-editor">
        <p className="hint" id="order-counts">
          {count(draft.domains.length)} of at most {count(ORDER_LIMITS.domains)} domains · {count(total)} of at most {count(ORDER_LIMITS.mailboxes)} mailboxes
        </p>
        {draft.domains.map((row, i) => (
          <fieldset key={row.key} className="card domain-row">
            <legend>Domain {i + 1}</legend>
            <div className="domain-fields">
              <Field
                label="Domain name"
                value={row.domain}
                placeholder="outreach-example.com"
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => {
                  const domain = e.target.value;
                  setDomain(row.key, (r) => ({ ...r, domain }));
                }}
              />
              <Field
                label="Forward to (optional)"
                value={row.forwardTo}
                placeholder="example.com"
                autoComplete="off"
                spellCheck={false}
                hint="The site a person lands on when they open this domain in a browser."
                onChange={(e) => {
                  const forwardTo = e.target.value;
                  setDomain(row.key, (r) => ({ ...r, forwardTo }));
                }}
              />
            </div>
            {problemsOfRow(i).map((group) => (
              <DomainIssues
                key={`${group.index}-${group.domain}`}
                problems={group}
                label={`Problems with domain ${i + 1}`}
                withRecords={preview.state.kind === 'refused'}
              />
            ))}
            {row.mailboxes.map((m, j) => (
              <fieldset key={m.key} className="mailbox-row">
                <legend>
                  Mailbox {j + 1}
                  <span className="sr-only"> of domain {i + 1}</span>
                </legend>
                <div className="mailbox-fields">
                  <Field
                    label="First name"
                    value={m.firstName}
                    autoComplete="off"
                    onChange={(e) => {
                      const firstName = e.target.value;
                      setMailbox(row.key, m.key, (x) => ({
                        ...x,
                        firstName,
                        localPart: x.localPart === suggestLocalPart(x.firstName) ? suggestLocalPart(firstName) : x.localPart,
                      }));
                    }}
                  />
                  <Field
                    label="Last name"
                    value={m.lastName}
                    autoComplete="off"
                    onChange={(e) => {
                      const lastName = e.target.value;
                      setMailbox(row.key, m.key, (x) => ({ ...x, lastName }));
                    }}
                  />
                  <AddressField
                    value={m.localPart}
                    domain={row.domain.trim() || 'your domain'}
                    onChange={(localPart) => setMailbox(row.key, m.key, (x) => ({ ...x, localPart }))}
                  />
                  <button
                    type="button"
                    className="link-button mailbox-remove"
                    onClick={() => removeMailbox(row.key, m.key)}
                    aria-label={`Remove mailbox ${j + 1} of domain ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
              </fieldset>
            ))}
            <div className="row-actions">
              <button type="button" onClick={() => addMailbox(row.key)}>
                Add a mailbox<span className="sr-only"> to domain {i + 1}</span>
              </button>
              <button type="button" className="danger" onClick={() => removeDomain(row.key)}>
                Remove domain {i + 1}
              </button>
            </div>
          </fieldset>
        ))}
        <ErrorBanner message={limitMessage} />
        <div className="row-actions">
          <button type="button" onClick={addDomain}>
            Add a domain
          </button>
          {draft.domains.length > 1 ? (
            <button type="button" onClick={copyFirstMailboxes}>
              Give every domain domain 1's mailboxes
            </button>
          ) : null}
        </div>
        <BulkDomains draft={draft} setDraft={setDraft} withinLimits={withinLimits} />
      </div>
      <div className="order-side">
        <PromotionCode draft={draft} setDraft={setDraft} preview={preview} />
        <PreviewPanel preview={preview} rows={props.rows} />
        <div className="wizard-actions">
          <button type="button" onClick={props.onBack}>
            Back to plans
          </button>
          <button
            type="button"
            className="primary"
            onClick={props.onNext}
            disabled={!(preview.current && preview.state.kind === 'priced')}
            aria-describedby="continue-why"
          >
            Continue to review
          </button>
        </div>
        <p id="continue-why" className="hint">
          {preview.current && preview.state.kind === 'priced'
            ? 'Nothing is charged until you confirm on the next step.'
            : preview.checking
              ? 'Waiting for the preview of the order as it stands.'
              : 'The order can go on once the preview shows its price with no problem to fix.'}
        </p>
      </div>
    </div>
  );
}

function AddressField(props: { value: string; domain: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Address</label>
      <div className="address-input">
        <input
          id={id}
          value={props.value}
          autoComplete="off"
          spellCheck={false}
          placeholder="alex"
          onChange={(e) => props.onChange(e.target.value)}
          aria-describedby={`${id}-at`}
        />
        <span id={`${id}-at`} className="address-domain">
          @{props.domain}
        </span>
      </div>
    </div>
  );
}

/** Many domains at once, pasted; each new row gets copies of domain 1's mailboxes. */
function BulkDomains(props: {
  draft: OrderDraft;
  setDraft: Dispatch<SetStateAction<OrderDraft>>;
  withinLimits: (domains: number, mailboxes: number) => boolean;
}) {
  const [text, setText] = useState('');
  const [notDomains, setNotDomains] = useState<readonly NotADomain[]>([]);
  const [added, setAdded] = useState<string | null>(null);
  const add = () => {
    const { draft } = props;
    const have = new Set(draft.domains.map((d) => d.domain.trim().toLowerCase()).filter(Boolean));
    const read = readDomainLines(text);
    const fresh = read.domains.filter((d) => !have.has(d));
    setNotDomains(read.notDomains);
    // The lines that were not domains stay in the box, to be fixed; the domains leave it for the rows.
    const keep = read.notDomains.map((n) => n.text).join('\n');
    if (fresh.length === 0) {
      setAdded(read.notDomains.length === 0 && read.domains.length > 0 ? 'These domains are on the order already.' : null);
      setText(keep);
      return;
    }
    const template = draft.domains[0]!.mailboxes;
    // A first row still empty takes the first pasted domain instead of staying blank.
    const reuseFirst = draft.domains.length === 1 && !draft.domains[0]!.domain.trim();
    const domains = draft.domains.length + fresh.length - (reuseFirst ? 1 : 0);
    if (!props.withinLimits(domains, mailboxCount(draft) + template.length * (fresh.length - (reuseFirst ? 1 : 0)))) return;
    props.setDraft((d) => {
      const rows = fresh.map((domain) => ({ ...blankDomain(template), domain }));
      return { ...d, domains: reuseFirst ? [{ ...d.domains[0]!, domain: fresh[0]! }, ...rows.slice(1)] : [...d.domains, ...rows] };
    });
    setAdded(`Added ${fresh.length === 1 ? 'one domain' : `${fresh.length} domains`}: ${fresh.join(', ')}.`);
    setText(keep);
  };
  return (
    <details className="bulk-domains">
      <summary>Add many domains at once</summary>
      <div className="field">
        <label htmlFor="bulk-domains">Domains, one per line</label>
        <textarea
          id="bulk-domains"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="bulk-domains-hint"
          aria-invalid={notDomains.length > 0 ? true : undefined}
          spellCheck={false}
        />
        <small id="bulk-domains-hint" className="hint">
          One domain on each line, such as example.com (a line of domains separated by commas works too). Each new domain gets a copy of domain 1's mailboxes;
          edit them afterwards if you like.
        </small>
      </div>
      {notDomains.length > 0 ? (
        <div role="alert" className="banner banner-error bulk-not-domains">
          <p>
            {notDomains.length === 1 ? 'One line was not added: it is' : `${notDomains.length} lines were not added: they are`} not domain names. They are still
            in the box above; fix or remove them and add again.
          </p>
          <ul>
            {notDomains.map((n) => (
              <li key={n.line}>
                Line {n.line}, “{n.text.length > 80 ? `${n.text.slice(0, 80)}…` : n.text}”, is {n.why}.
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {added ? <p role="status">{added}</p> : null}
      <button type="button" onClick={add}>
        Add these domains
      </button>
    </details>
  );
}

function PromotionCode(props: { draft: OrderDraft; setDraft: Dispatch<SetStateAction<OrderDraft>>; preview: OrderPreviewHandle }) {
  const { state } = props.preview;
  const refused = isPromotionRefusal(state) && state.kind === 'refused' ? state.detail : null;
  const applied = state.kind === 'priced' ? state.preview.discount : null;
  return (
    <div className="field promotion-code">
      <label htmlFor="promotion-code">Promotion code (optional)</label>
      <input
        id="promotion-code"
        value={props.draft.promotionCode}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={refused ? true : undefined}
        aria-describedby="promotion-code-effect"
        onChange={(e) => {
          const promotionCode = e.target.value;
          props.setDraft((d) => ({ ...d, promotionCode }));
        }}
      />
      <small id="promotion-code-effect" className={refused ? 'field-error' : 'hint'}>
        {refused ??
          (applied
            ? `${applied.code}: ${applied.description}`
            : 'A code changes the first invoice in the preview; one that cannot apply is refused, never ignored.')}
      </small>
    </div>
  );
}
