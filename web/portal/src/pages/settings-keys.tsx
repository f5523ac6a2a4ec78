import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ApiKeysQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { useViewer } from '../session';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Field } from '../ui/field';
import { formatDate, formatDateTime } from '../ui/format';
import { ConfirmButtons } from '../ui/confirm-buttons';

/** Settings: the account's API keys (made, shown once, revoked), as the signed-in person's role allows. */
const ApiKeysDocument = graphql(`
  query ApiKeys {
    apiKeys { keyId name prefix scopes createdAt lastUsedAt createdBy revokedAt expiresAt rolledToKeyId }
  }
`);

const CreateApiKeyDocument = graphql(`
  mutation CreateApiKey($input: ApiKeyInput!) {
    createApiKey(input: $input) { keyId key scopes expiresAt }
  }
`);

const RollApiKeyDocument = graphql(`
  mutation RollApiKey($keyId: Int!, $graceHours: Int) {
    rollApiKey(keyId: $keyId, graceHours: $graceHours) { keyId key previousKeyId previousKeyExpiresAt }
  }
`);

/** How long a new key lives (docs/people.md, "Keys"): never, or a number of days. */
const LIFETIMES = [
  { value: '', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
] as const;

/** How long a rolled key keeps working beside its replacement. */
const GRACE_PERIODS = [
  { hours: 0, label: 'stop it now' },
  { hours: 1, label: 'for an hour' },
  { hours: 24, label: 'for a day' },
  { hours: 168, label: 'for a week' },
] as const;

const RevokeApiKeyDocument = graphql(`
  mutation RevokeApiKey($keyId: Int!) {
    revokeApiKey(keyId: $keyId) { keyId revoked }
  }
`);

type ApiKey = ApiKeysQuery['apiKeys'][number];

/** What each scope lets a key do (SPEC 5): shown beside its checkbox. */
const SCOPES = [
  { value: 'read', hint: 'read the dashboard, orders, billing, analytics and the rest' },
  { value: 'write', hint: 'change folders, monitoring, change requests and webhooks' },
  { value: 'orders:place', hint: 'place orders that charge the card on file' },
] as const;

export function ApiKeysSection() {
  const [result, reexecute] = useQuery({ query: ApiKeysDocument });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  return (
    <section className="card settings-section" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p className="aside">
        A key lets a program call the API as your account (<code>Authorization: Bearer sk_...</code>). The whole key is shown once, when it is made; afterwards
        only its first characters are.
      </p>
      <CreateKeyForm onCreated={refresh} />
      <QueryState {...result}>{(data) => <KeyTable keys={data.apiKeys} onRevoked={refresh} />}</QueryState>
    </section>
  );
}

function CreateKeyForm(props: { onCreated: () => void }) {
  // A key holds at most its maker's role's scopes (docs/people.md): a member cannot give one orders:place.
  const { viewer } = useViewer();
  const ownersOnly = (scope: string) => viewer.role !== 'owner' && scope === 'orders:place';
  const [created, createKey] = useMutation(CreateApiKeyDocument);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [lifetime, setLifetime] = useState('');
  const [shown, setShown] = useState<{ key: string; name: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (scopes.length === 0) {
      setProblem('Tick at least one scope: a key without scopes could do nothing.');
      return;
    }
    const expiresAt = lifetime === '' ? null : new Date(Date.now() + Number(lifetime) * 86_400_000).toISOString();
    const answer = await createKey({ input: { name, scopes, expiresAt } });
    if (answer.data) {
      setShown({ key: answer.data.createApiKey.key, name: name.trim() });
      setName('');
      props.onCreated();
    } else {
      setProblem(errorSentence(answer.error));
    }
  };
  const toggle = (scope: string, on: boolean) => setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));
  return (
    <>
      {shown ? <NewKeyBox keyValue={shown.key} name={shown.name} onDone={() => setShown(null)} /> : null}
      <form className="create-key" onSubmit={(event) => void submit(event)} aria-labelledby="create-key-heading">
        <h3 id="create-key-heading">Create a key</h3>
        <ErrorBanner message={problem} />
        <Field
          label="Key name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={100}
          hint="Where the key is used, such as “CI” or “billing script”."
        />
        <fieldset className="scopes">
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope.value} className="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope.value)}
                disabled={ownersOnly(scope.value)}
                onChange={(e) => toggle(scope.value, e.target.checked)}
              />
              <span>
                <code>{scope.value}</code>: {scope.hint}
                {ownersOnly(scope.value) ? ' (owners only: ask an owner for such a key)' : ''}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Expires</span>
          <select value={lifetime} onChange={(e) => setLifetime(e.target.value)}>
            {LIFETIMES.map((l) => (
              <option key={l.value} value={l.value}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={created.fetching}>
          {created.fetching ? 'Creating…' : 'Create key'}
        </button>
      </form>
    </>
  );
}

/** The new key, whole, this once: a read-only box to copy from, and a warning that it will not be shown again. */
function NewKeyBox(props: { keyValue: string; name: string; onDone: () => void }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.select();
  }, [props.keyValue]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.keyValue);
      setCopied('Copied to the clipboard.');
    } catch {
      box.current?.select();
      setCopied('The browser would not copy; the key is selected: press Ctrl+C (⌘C on a Mac).');
    }
  };
  return (
    <div className="new-key" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Your new key “{props.name}”</h3>
      <p className="banner banner-warn">
        <strong>Copy it now: it is shown this once.</strong> After you leave or reload this page only its first characters are shown, and nobody can read it
        again; if it is lost, revoke it and create another.
      </p>
      <label htmlFor={id}>New API key</label>
      <div className="copy-row">
        <textarea id={id} ref={box} className="secret" readOnly rows={2} value={props.keyValue} spellCheck={false} onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {copied ? (
        <p role="status" className="hint">
          {copied}
        </p>
      ) : null}
      <button type="button" className="link-button" onClick={props.onDone}>
        I have copied it; hide the key
      </button>
    </div>
  );
}

function KeyTable(props: { keys: readonly ApiKey[]; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [revoking, revoke] = useMutation(RevokeApiKeyDocument);
  const [rolling, roll] = useMutation(RollApiKeyDocument);
  const [grace, setGrace] = useState<Record<number, number>>({});
  const [rolled, setRolled] = useState<{ key: string; name: string } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (props.keys.length === 0) return <p>No keys yet; create one above.</p>;
  const doRoll = async (key: ApiKey) => {
    setMessage(null);
    const answer = await roll({ keyId: key.keyId, graceHours: grace[key.keyId] ?? 24 });
    if (answer.data) {
      const until = answer.data.rollApiKey.previousKeyExpiresAt;
      setRolled({ key: answer.data.rollApiKey.key, name: key.name ?? key.prefix });
      setMessage({ ok: true, text: `Key “${key.name ?? key.prefix}” is rolled: the old key works until ${formatDateTime(until)}, then is refused.` });
      props.onRevoked();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The key was not rolled.' });
    }
  };
  const expired = (key: ApiKey) => key.expiresAt !== null && key.expiresAt !== undefined && Date.parse(String(key.expiresAt)) <= Date.now();
  const doRevoke = async (key: ApiKey) => {
    const answer = await revoke({ keyId: key.keyId });
    setConfirming(null);
    if (answer.data) {
      setMessage({ ok: true, text: `Key “${key.name ?? key.prefix}” is revoked; its next request is refused.` });
      props.onRevoked();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The key was not revoked.' });
    }
  };
  return (
    <>
      {rolled ? <NewKeyBox keyValue={rolled.key} name={rolled.name} onDone={() => setRolled(null)} /> : null}
      {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
      <div className="table-wrap">
        <table className="stack-table">
          <caption className="sr-only">API keys of the account</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Created by</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {props.keys.map((key) => (
              <tr key={key.keyId} className={key.revokedAt || expired(key) ? 'revoked' : undefined}>
                <td data-label="Name">{key.name ?? <span className="hint">Unnamed</span>}</td>
                <td data-label="Key">
                  <code className="prefix">{key.prefix}…</code>
                </td>
                <td data-label="Scopes">{key.scopes.join(', ')}</td>
                <td data-label="Created">{formatDate(key.createdAt)}</td>
                <td data-label="Last used">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}</td>
                <td data-label="Created by">{key.createdBy ?? <span className="hint">Operator</span>}</td>
                <td data-label="Status">
                  {key.revokedAt ? (
                    <>Revoked {formatDate(key.revokedAt)}</>
                  ) : expired(key) ? (
                    <>Expired {formatDateTime(key.expiresAt)}</>
                  ) : confirming === key.keyId ? (
                    <div className="confirm" role="group" aria-label={`Confirm revoking ${key.name ?? key.prefix}`}>
                      <span>Revoke it? Programs using it stop working.</span>
                      <ConfirmButtons
                        confirmLabel="Yes, revoke"
                        busy={revoking.fetching}
                        onConfirm={() => void doRevoke(key)}
                        onCancel={() => setConfirming(null)}
                      />
                    </div>
                  ) : (
                    <>
                      {key.rolledToKeyId ? (
                        <>Rolled; works until {formatDateTime(key.expiresAt)} </>
                      ) : key.expiresAt ? (
                        <>Active until {formatDateTime(key.expiresAt)} </>
                      ) : (
                        <>Active </>
                      )}
                      {key.rolledToKeyId ? null : (
                        <span className="roll">
                          <select
                            aria-label={`After rolling ${key.name ?? key.prefix}, the old key works`}
                            value={grace[key.keyId] ?? 24}
                            onChange={(e) => setGrace((now) => ({ ...now, [key.keyId]: Number(e.target.value) }))}
                          >
                            {GRACE_PERIODS.map((g) => (
                              <option key={g.hours} value={g.hours}>
                                {g.label}
                              </option>
                            ))}
                          </select>{' '}
                          <button
                            type="button"
                            className="small"
                            disabled={rolling.fetching}
                            aria-label={`Roll key ${key.name ?? key.prefix}`}
                            onClick={() => void doRoll(key)}
                          >
                            Roll
                          </button>{' '}
                        </span>
                      )}
                      <button
                        type="button"
                        className="danger small"
                        aria-label={`Revoke key ${key.name ?? key.prefix}`}
                        onClick={() => {
                          setMessage(null);
                          setConfirming(key.keyId);
                        }}
                      >
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A destructive action's second step; the confirm button takes the focus so the keyboard lands on it. */
