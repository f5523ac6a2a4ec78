import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { RevealMailboxCredentialsMutation } from '../gql/graphql';
import { errorSentence } from '../api';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { ConfirmButtons } from '../ui/confirm-buttons';
import { setupPath } from './domain-setup';

const DomainMailboxesDocument = graphql(`
  query DomainMailboxes($domain: String!) {
    domainMailboxes(domain: $domain) {
      domain
      mailboxes { email firstName lastName status }
    }
  }
`);

const RevealMailboxCredentialsDocument = graphql(`
  mutation RevealMailboxCredentials($domain: String!) {
    revealMailboxCredentials(domain: $domain) {
      domain
      mailboxes { email status username password imapHost imapPort smtpHost smtpPort }
    }
  }
`);

const ResetMailboxPasswordDocument = graphql(`
  mutation ResetMailboxPassword($email: String!) {
    resetMailboxPassword(email: $email) { email password }
  }
`);

type Credentials = RevealMailboxCredentialsMutation['revealMailboxCredentials']['mailboxes'];

/** The mailboxes page of one domain (under /portal). */
export const mailboxesPath = (domain: string) => `/domains/${encodeURIComponent(domain)}/mailboxes`;

const STATUS_WORDS: Record<string, string> = {
  pending: 'being created',
  active: 'active',
  suspended: 'suspended',
};

/**
 * A domain's mailboxes with their status at the provider; "Show credentials" asks first (each reveal
 * is recorded and the account's people are told), then shows every password with the IMAP and SMTP
 * servers until the person hides them or leaves the page. Each active mailbox has "Reset password",
 * which asks first (the old password stops working) and then shows the new one once.
 */
export function MailboxesPage() {
  const params = useParams<{ domain: string }>();
  const domain = decodeURIComponent(params.domain ?? '').toLowerCase();
  const [result] = useQuery({ query: DomainMailboxesDocument, variables: { domain } });
  const [revealing, reveal] = useMutation(RevealMailboxCredentialsDocument);
  const [confirming, setConfirming] = useState(false);
  const [shown, setShown] = useState<Credentials | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [resetting, resetPassword] = useMutation(ResetMailboxPasswordDocument);
  /** The mailbox whose reset is being confirmed. */
  const [confirmingReset, setConfirmingReset] = useState<string | null>(null);
  /** The new password, shown once until dismissed. */
  const [newPassword, setNewPassword] = useState<{ email: string; password: string } | null>(null);
  const [resetError, setResetError] = useState<string | null>(null);

  const reset = async (email: string) => {
    const answer = await resetPassword({ email });
    setConfirmingReset(null);
    const made = answer.data?.resetMailboxPassword;
    if (answer.error || !made?.password) {
      setResetError(errorSentence(answer.error) ?? `The password of ${email} was not reset.`);
      return;
    }
    setResetError(null);
    setNewPassword({ email: made.email, password: made.password });
    // Credentials on show would be stale: the old password no longer works.
    setShown((mailboxes) => mailboxes?.map((m) => (m.email === made.email ? { ...m, password: made.password } : m)) ?? null);
  };

  const showCredentials = async () => {
    const answer = await reveal({ domain });
    setConfirming(false);
    if (answer.error || !answer.data) {
      setError(errorSentence(answer.error) ?? 'The credentials could not be shown.');
      return;
    }
    setError(null);
    setShown(answer.data.revealMailboxCredentials.mailboxes);
  };

  return (
    <Page
      title={`Mailboxes of ${domain}`}
      actions={
        <Link href={setupPath(domain)} className="button-link">
          Setup and records
        </Link>
      }
    >
      <QueryState fetching={result.fetching} error={result.error} data={result.data?.domainMailboxes}>
        {(data) => (
          <>
            <section className="card card-titled" aria-labelledby="mailboxes-heading">
              <h2 id="mailboxes-heading">Mailboxes</h2>
              {resetError ? <ErrorBanner message={resetError} /> : null}
              {newPassword ? (
                <div className="new-password" role="status">
                  <p className="banner banner-ok">
                    New password of {newPassword.email}: <code>{newPassword.password}</code>
                    <br />
                    It is shown this once: copy it into your sending tool now. The old password no longer works.
                  </p>
                  <button type="button" onClick={() => setNewPassword(null)}>
                    Done, hide it
                  </button>
                </div>
              ) : null}
              <div className="table-wrap">
                <table className="stack-on-phone">
                  <caption className="sr-only">The mailboxes of {data.domain} and their status at the mail provider</caption>
                  <thead>
                    <tr>
                      <th scope="col">Address</th>
                      <th scope="col">Name</th>
                      <th scope="col">Status</th>
                      <th scope="col">Password reset</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.mailboxes.map((m) => (
                      <tr key={m.email}>
                        <td data-label="Address">{m.email}</td>
                        <td data-label="Name">
                          {m.firstName} {m.lastName}
                        </td>
                        <td data-label="Status">
                          <Chip value={m.status} label={STATUS_WORDS[m.status]} />
                        </td>
                        <td data-label="Password reset">
                          {m.status !== 'active' ? (
                            <span className="hint">{m.status === 'pending' ? 'made when it is created' : 'not while suspended'}</span>
                          ) : confirmingReset === m.email ? (
                            <span className="reset-confirm">
                              <span>Give {m.email} a new password? The old one stops working at once.</span>{' '}
                              <ConfirmButtons
                                confirmLabel="Yes, reset it"
                                busy={resetting.fetching}
                                onConfirm={() => void reset(m.email)}
                                onCancel={() => setConfirmingReset(null)}
                              />
                            </span>
                          ) : (
                            <button
                              type="button"
                              className="small"
                              aria-label={`Reset password for ${m.email}`}
                              disabled={resetting.fetching}
                              onClick={() => {
                                setNewPassword(null);
                                setConfirmingReset(m.email);
                              }}
                            >
                              Reset password
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
            <section className="card card-titled" aria-labelledby="credentials-heading">
              <h2 id="credentials-heading">Credentials</h2>
              <p className="aside">
                The passwords and servers your sending tool needs. Showing them is recorded, and the people on this account are told by e-mail.
              </p>
              {error ? <ErrorBanner message={error} /> : null}
              {shown ? (
                <>
                  <button type="button" onClick={() => setShown(null)}>
                    Hide credentials
                  </button>
                  <CredentialsTable mailboxes={shown} />
                </>
              ) : confirming ? (
                <div className="toolbar">
                  <p id="reveal-confirm">Show the passwords of every mailbox on {data.domain}? This is recorded.</p>
                  <ConfirmButtons
                    confirmLabel="Yes, show them"
                    busy={revealing.fetching}
                    onConfirm={() => void showCredentials()}
                    onCancel={() => setConfirming(false)}
                  />
                </div>
              ) : (
                <button type="button" className="primary" onClick={() => setConfirming(true)}>
                  Show credentials
                </button>
              )}
            </section>
          </>
        )}
      </QueryState>
    </Page>
  );
}

function CredentialsTable(props: { mailboxes: Credentials }) {
  return (
    <>
      <Notice tone="warn">Keep these safe: anyone with a password can send as the mailbox.</Notice>
      <div className="table-wrap">
        <table className="stack-on-phone">
          <caption className="sr-only">Passwords and servers of each mailbox</caption>
          <thead>
            <tr>
              <th scope="col">Address (username)</th>
              <th scope="col">Password</th>
              <th scope="col">IMAP</th>
              <th scope="col">SMTP</th>
            </tr>
          </thead>
          <tbody>
            {props.mailboxes.map((m) => (
              <tr key={m.email}>
                <td data-label="Address (username)">{m.username}</td>
                <td data-label="Password">
                  {m.password === null || m.password === undefined ? <span className="hint">not created yet</span> : <code>{m.password}</code>}
                </td>
                <td data-label="IMAP">
                  {m.imapHost}:{m.imapPort}
                </td>
                <td data-label="SMTP">
                  {m.smtpHost}:{m.smtpPort}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
