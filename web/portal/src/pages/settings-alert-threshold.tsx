import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { errorSentence } from '../api';
import { Field } from '../ui/field';
import { ErrorBanner, Notice, QueryState } from '../ui/status';

const AlertSettingsDocument = graphql(`
  query PortalAlertSettings {
    alertSettings { dmarcPassRateThreshold dmarcPassRateThresholdSource dmarcPassRateThresholdDefault dmarcMinMessages }
  }
`);

const SetAlertSettingsDocument = graphql(`
  mutation PortalSetAlertSettings($input: AlertSettingsInput!) {
    setAlertSettings(input: $input) { dmarcPassRateThreshold dmarcPassRateThresholdSource dmarcPassRateThresholdDefault dmarcMinMessages }
  }
`);

/**
 * Settings → DMARC alerts: the pass rate under which a receiver's DMARC report raises dmarc.failures
 * (docs/reports.md, "Alerts"), as PUT /v1/alerts/settings sets it; "Use the default" sends null.
 */
export function AlertThresholdSection() {
  const [result, refetch] = useQuery({ query: AlertSettingsDocument });
  const [saving, save] = useMutation(SetAlertSettingsDocument);
  const [draft, setDraft] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async (threshold: number | null) => {
    setMessage(null);
    const answer = await save({ input: { dmarcPassRateThreshold: threshold } });
    if (answer.data) {
      const saved = answer.data.setAlertSettings;
      setDraft(null);
      setMessage({
        ok: true,
        text: `DMARC alerts now go out when a report's pass rate is under ${saved.dmarcPassRateThreshold}%${saved.dmarcPassRateThresholdSource === 'default' ? ' (the default)' : ''}.`,
      });
      refetch({ requestPolicy: 'network-only' });
    } else {
      setMessage({ ok: false, text: errorSentence(saving.error ?? answer.error) ?? 'The threshold was not saved.' });
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>, current: number) => {
    event.preventDefault();
    const text = (draft ?? String(current)).trim();
    void send(text === '' ? null : Number(text));
  };
  return (
    <section className="card settings-section" aria-labelledby="dmarc-alerts-heading">
      <h2 id="dmarc-alerts-heading">DMARC alerts</h2>
      <QueryState {...result}>
        {(data) => {
          const settings = data.alertSettings;
          return (
            <form className="narrow-form" onSubmit={(event) => submit(event, settings.dmarcPassRateThreshold)}>
              <p className="aside">
                A receiver's DMARC report of at least {settings.dmarcMinMessages} messages raises an alert when fewer than this share of them passed DMARC. The
                default is {settings.dmarcPassRateThresholdDefault}%.
              </p>
              {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
              <Field
                label="Alert when the pass rate is under (%)"
                type="number"
                inputMode="decimal"
                min="0.1"
                max="100"
                step="0.1"
                value={draft ?? String(settings.dmarcPassRateThreshold)}
                onChange={(event) => setDraft(event.target.value)}
                hint={settings.dmarcPassRateThresholdSource === 'default' ? 'The default applies.' : 'Set for your account.'}
              />
              <div className="row-actions">
                <button type="submit" className="primary" disabled={saving.fetching}>
                  {saving.fetching ? 'Saving…' : 'Save threshold'}
                </button>
                <button type="button" disabled={saving.fetching || settings.dmarcPassRateThresholdSource === 'default'} onClick={() => void send(null)}>
                  Use the default
                </button>
              </div>
            </form>
          );
        }}
      </QueryState>
    </section>
  );
}
