import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice, QueryState } from '../ui/status';

const AlertRecipientsDocument = graphql(`
  query AlertRecipients {
    alertRecipients { emails maxEmails }
  }
`);

const SetAlertRecipientsDocument = graphql(`
  mutation SetAlertRecipients($input: AlertRecipientsInput!) {
    setAlertRecipients(input: $input) { emails maxEmails }
  }
`);

/** One address per line (commas and semicolons also separate), empty entries dropped. */
function addressesOf(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((one) => one.trim())
    .filter((one) => one.length > 0);
}

/**
 * Settings → alert e-mails: the addresses that receive the account's alerts (domain live, needs
 * attention, listed, invoice past due) besides its people. The whole list is sent at once and
 * replaces the one before, as PUT /v1/alerts/recipients does.
 */
export function AlertRecipientsSection() {
  const [result, refetch] = useQuery({ query: AlertRecipientsDocument });
  const [saving, save] = useMutation(SetAlertRecipientsDocument);
  const [draft, setDraft] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>, current: readonly string[]) => {
    event.preventDefault();
    setMessage(null);
    const emails = addressesOf(draft ?? current.join('\n'));
    const answer = await save({ input: { emails } });
    if (answer.data) {
      const saved = answer.data.setAlertRecipients.emails;
      setDraft(null);
      setMessage({ ok: true, text: saved.length === 0 ? "Alerts now go to the account's people only." : `Alerts also go to ${saved.join(', ')}.` });
      refetch({ requestPolicy: 'network-only' });
    } else {
      setMessage({ ok: false, text: errorSentence(saving.error ?? answer.error) ?? 'The list was not saved.' });
    }
  };
  return (
    <section className="card settings-section" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Alert e-mails</h2>
      <p className="aside">
        Everyone on the account receives alerts (a domain live or needing attention, listed or delisted, an invoice past due). Add other addresses here, such as
        a shared inbox.
      </p>
      <QueryState {...result}>
        {(data) => (
          <form className="narrow-form" onSubmit={(event) => void submit(event, data.alertRecipients.emails)}>
            {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
            <div className="field">
              <label htmlFor="alert-addresses">Other addresses, one per line</label>
              <textarea
                id="alert-addresses"
                aria-describedby="alert-addresses-hint"
                value={draft ?? data.alertRecipients.emails.join('\n')}
                onChange={(event) => setDraft(event.target.value)}
              />
              <small id="alert-addresses-hint" className="hint">
                At most {data.alertRecipients.maxEmails}. Leave empty to send alerts to the account's people only.
              </small>
            </div>
            <button type="submit" className="primary" disabled={saving.fetching}>
              {saving.fetching ? 'Saving…' : 'Save addresses'}
            </button>
          </form>
        )}
      </QueryState>
    </section>
  );
}
