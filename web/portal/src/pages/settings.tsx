import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ApiKeysQuery, PeopleQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { useViewer } from '../session';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Field, SelectField } from '../ui/field';
import { formatDate, formatDateTime } from '../ui/format';
import { AlertRecipientsSection } from './settings-alerts';
import { WebhooksSection } from './settings-webhooks';
import { DnsConnectionsSection } from './settings-dns';
import { ConfirmButtons } from '../ui/confirm-buttons';
import { newPasswordOf } from '../ui/new-password';

const ApiKeysDocument = graphql(`
  query ApiKeys {
    apiKeys { keyId name prefix scopes createdAt lastUsedAt createdBy revokedAt }
  }
`);

const CreateApiKeyDocument = graphql(`
  mutation CreateApiKey($input: ApiKeyInput!) {
    createApiKey(input: $input) { keyId key scopes }
  }
`);

const RevokeApiKeyDocument = graphql(`
  mutation RevokeApiKey($keyId: Int!) {
    revokeApiKey(keyId: $keyId) { keyId revoked }
  }
`);

const PeopleDocument = graphql(`
  query People {
    people { userId email role createdAt }
    invitations { email role expiresAt invitedBy }
  }
`);

const ResendInvitationDocument = graphql(`
  mutation ResendInvitation($email: String!) {
    resendInvitation(email: $email) { email role expiresAt }
  }
`);

const CancelInvitationDocument = graphql(`
  mutation CancelInvitation($email: String!) {
    cancelInvitation(email: $email) { email cancelled }
  }
`);

const InviteUserDocument = graphql(`
  mutation InviteUser($email: String!, $role: UserRole!) {
    inviteUser(email: $email, role: $role) { email role expiresAt }
  }
`);

const ChangeRoleDocument = graphql(`
  mutation ChangeRole($userId: Int!, $role: UserRole!) {
    changeRole(userId: $userId, role: $role) { userId email role }
  }
`);

const RemovePersonDocument = graphql(`
  mutation RemovePerson($userId: Int!) {
    removePerson(userId: $userId) { userId email removed sessionsEnded keysRevoked }
  }
`);

const ChangePasswordDocument = graphql(`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) { changed otherSessionsEnded }
  }
`);

type ApiKey = ApiKeysQuery['apiKeys'][number];
type Person = PeopleQuery['people'][number];
type Role = Person['role'];

/** What each scope lets a key do (SPEC 5): shown beside its checkbox. */
const SCOPES = [
  { value: 'read', hint: 'read the dashboard, orders, billing, analytics and the rest' },
  { value: 'write', hint: 'change folders, monitoring, change requests and webhooks' },
  { value: 'orders:place', hint: 'place orders that charge the card on file' },
] as const;

/** Settings: the account's API keys, its people and invitations, alert addresses, and the person's own password. */
export function SettingsPage() {
  return (
    <Page title="Settings">
      <ApiKeysSection />
      <PeopleSection />
      <AlertRecipientsSection />
      <WebhooksSection />
      <DnsConnectionsSection />
      <PasswordSection />
    </Page>
  );
}

function ApiKeysSection() {
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
  const [shown, setShown] = useState<{ key: string; name: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (scopes.length === 0) {
      setProblem('Tick at least one scope: a key without scopes could do nothing.');
      return;
    }
    const answer = await createKey({ input: { name, scopes } });
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
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (props.keys.length === 0) return <p>No keys yet; create one above.</p>;
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
              <tr key={key.keyId} className={key.revokedAt ? 'revoked' : undefined}>
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
                      Active{' '}
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

function PeopleSection() {
  const { viewer } = useViewer();
  const [result, reexecute] = useQuery({ query: PeopleDocument });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const isOwner = viewer.role === 'owner';
  return (
    <section className="card settings-section" aria-labelledby="people-heading">
      <h2 id="people-heading">People</h2>
      {isOwner ? (
        <p className="aside">Owners invite people, change their roles and remove them; members use the portal but manage no one.</p>
      ) : (
        <Notice>You are a member: only an account owner can invite people, change roles or remove someone; ask an owner of your account.</Notice>
      )}
      <QueryState {...result}>
        {(data) => (
          <>
            <PeopleTable people={data.people} isOwner={isOwner} myId={viewer.userId} onChanged={refresh} />
            <h3>Pending invitations</h3>
            <PendingInvitations invitations={data.invitations} isOwner={isOwner} onChanged={refresh} />
          </>
        )}
      </QueryState>
      {isOwner ? <InviteForm onInvited={refresh} /> : null}
    </section>
  );
}

function PeopleTable(props: { people: readonly Person[]; isOwner: boolean; myId: number; onChanged: () => void }) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [roleChange, changeRole] = useMutation(ChangeRoleDocument);
  const [removal, removePerson] = useMutation(RemovePersonDocument);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const setRole = async (person: Person, role: Role) => {
    setMessage(null);
    const answer = await changeRole({ userId: person.userId, role });
    if (answer.data) {
      setMessage({ ok: true, text: `${person.email} is now ${answer.data.changeRole.role === 'owner' ? 'an owner' : 'a member'}.` });
      props.onChanged();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The role was not changed.' });
    }
  };
  const remove = async (person: Person) => {
    const answer = await removePerson({ userId: person.userId });
    setConfirming(null);
    if (answer.data) {
      const keys = answer.data.removePerson.keysRevoked;
      setMessage({
        ok: true,
        text: `${person.email} is removed and signed out; ${keys === 0 ? 'they had made no API keys' : `the ${keys === 1 ? 'API key they made is' : `${keys} API keys they made are`} revoked`}.`,
      });
      props.onChanged();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The person was not removed.' });
    }
  };
  return (
    <>
      {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
      <div className="table-wrap">
        <table className="stack-table">
          <caption className="sr-only">People of the account</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {props.isOwner ? <th scope="col">Manage</th> : null}
            </tr>
          </thead>
          <tbody>
            {props.people.map((person) => {
              const other: Role = person.role === 'owner' ? 'member' : 'owner';
              return (
                <tr key={person.userId}>
                  <td data-label="E-mail">
                    {person.email}
                    {person.userId === props.myId ? <span className="hint"> (you)</span> : null}
                  </td>
                  <td data-label="Role">{person.role}</td>
                  <td data-label="Joined">{formatDate(person.createdAt)}</td>
                  {props.isOwner ? (
                    <td data-label="Manage">
                      {confirming === person.userId ? (
                        <div className="confirm" role="group" aria-label={`Confirm removing ${person.email}`}>
                          <span>Remove {person.email}? They are signed out at once.</span>
                          <ConfirmButtons
                            confirmLabel="Yes, remove"
                            busy={removal.fetching}
                            onConfirm={() => void remove(person)}
                            onCancel={() => setConfirming(null)}
                          />
                        </div>
                      ) : (
                        <span className="row-actions">
                          <button
                            type="button"
                            className="small"
                            disabled={roleChange.fetching}
                            onClick={() => void setRole(person, other)}
                            aria-label={`Make ${person.email} ${other === 'owner' ? 'an owner' : 'a member'}`}
                          >
                            Make {other}
                          </button>
                          {person.userId === props.myId ? null : (
                            <button
                              type="button"
                              className="danger small"
                              aria-label={`Remove ${person.email}`}
                              onClick={() => {
                                setMessage(null);
                                setConfirming(person.userId);
                              }}
                            >
                              Remove
                            </button>
                          )}
                        </span>
                      )}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

type Invitation = PeopleQuery['invitations'][number];

/** Pending invitations; an owner re-sends one (a new link for 7 more days, the old one dies) or cancels it. */
function PendingInvitations(props: { invitations: readonly Invitation[]; isOwner: boolean; onChanged: () => void }) {
  const [resending, resend] = useMutation(ResendInvitationDocument);
  const [cancelling, cancel] = useMutation(CancelInvitationDocument);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const act = async (email: string, kind: 'resend' | 'cancel') => {
    setMessage(null);
    const answer = kind === 'resend' ? await resend({ email }) : await cancel({ email });
    if (answer.data) {
      setMessage({
        ok: true,
        text:
          kind === 'resend'
            ? `A new link is on its way to ${email}; the one sent before no longer works.`
            : `The invitation to ${email} is cancelled; its link no longer works.`,
      });
      props.onChanged();
    } else {
      setMessage({
        ok: false,
        text: errorSentence(answer.error) ?? (kind === 'resend' ? 'The invitation was not sent again.' : 'The invitation was not cancelled.'),
      });
    }
  };
  return (
    <>
      {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
      {props.invitations.length === 0 ? (
        <p className="aside">None waiting.</p>
      ) : (
        <ul className="invitations">
          {props.invitations.map((invitation) => (
            <li key={`${invitation.email}-${invitation.expiresAt}`} data-testid="pending-invitation">
              {invitation.email} as {invitation.role}
              {invitation.invitedBy ? `, invited by ${invitation.invitedBy}` : ''}; the link works until {formatDateTime(invitation.expiresAt)}
              {props.isOwner ? (
                <span className="actions">
                  {' '}
                  <button
                    type="button"
                    disabled={resending.fetching}
                    onClick={() => void act(invitation.email, 'resend')}
                    aria-label={`Re-send the invitation to ${invitation.email}`}
                  >
                    Re-send
                  </button>{' '}
                  <button
                    type="button"
                    className="danger"
                    disabled={cancelling.fetching}
                    onClick={() => void act(invitation.email, 'cancel')}
                    aria-label={`Cancel the invitation to ${invitation.email}`}
                  >
                    Cancel
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function InviteForm(props: { onInvited: () => void }) {
  const [invitation, invite] = useMutation(InviteUserDocument);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const answer = await invite({ email, role });
    if (answer.data) {
      const sent = answer.data.inviteUser;
      setMessage({ ok: true, text: `Invitation sent to ${sent.email} as ${sent.role}; the link works until ${formatDateTime(sent.expiresAt)}.` });
      setEmail('');
      props.onInvited();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The invitation was not sent.' });
    }
  };
  return (
    <form className="invite" onSubmit={(event) => void submit(event)} aria-labelledby="invite-heading">
      <h3 id="invite-heading">Invite someone</h3>
      {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
      <div className="toolbar">
        <Field label="Their e-mail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="off" />
        <SelectField
          label="Role"
          value={role}
          onChange={(e) => setRole(e.target.value === 'owner' ? 'owner' : 'member')}
          options={[
            { value: 'member', label: 'Member' },
            { value: 'owner', label: 'Owner' },
          ]}
        />
        <button type="submit" className="primary" disabled={invitation.fetching}>
          {invitation.fetching ? 'Sending…' : 'Send invitation'}
        </button>
      </div>
    </form>
  );
}

function PasswordSection() {
  const [change, changePassword] = useMutation(ChangePasswordDocument);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const currentPassword = String(form.get('current') ?? '');
    const { password: newPassword, problem } = newPasswordOf(form, 'new');
    setMessage(problem ? { ok: false, text: problem } : null);
    if (problem) return;
    const answer = await changePassword({ input: { currentPassword, newPassword } });
    if (answer.data) {
      const ended = answer.data.changePassword.otherSessionsEnded;
      setMessage({
        ok: true,
        text: `Your password is changed. ${ended === 0 ? 'You had no other sessions' : ended === 1 ? 'Your one other session was signed out' : `Your ${ended} other sessions were signed out`}; this one stays signed in.`,
      });
      formElement.reset();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The password was not changed.' });
    }
  };
  return (
    <section className="card settings-section" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form className="narrow-form" onSubmit={(event) => void submit(event)}>
        {message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null}
        <Field label="Current password" name="current" type="password" autoComplete="current-password" required />
        <Field
          label="New password"
          name="new"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters. Your other sessions are signed out; this one stays."
        />
        <Field label="Repeat the new password" name="repeat" type="password" autoComplete="new-password" required minLength={10} />
        <button type="submit" className="primary" disabled={change.fetching}>
          {change.fetching ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
