import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { PeopleQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { useViewer } from '../session';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Field, SelectField } from '../ui/field';
import { formatDate, formatDateTime } from '../ui/format';
import { ConfirmButtons } from '../ui/confirm-buttons';

/** Settings: the account's people, their roles, and pending invitations (owners manage; members read). */
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

type Person = PeopleQuery['people'][number];
type Role = Person['role'];

export function PeopleSection() {
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
                            aria-label={`Make ${other}: ${person.email}`}
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
