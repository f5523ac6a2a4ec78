import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { detailOf, postAuth } from '../api';
import { newPasswordOf } from '../ui/new-password';
import { Field } from '../ui/field';
import { ErrorBanner } from '../ui/status';
import { Page } from '../ui/page';

/**
 * The e-mailed invitation's page (?token=): it names the account and who invited (POST
 * /auth/invitation, which uses nothing up), then the invited person chooses a password; POST
 * /auth/accept-invitation makes them a person of the account and answers 201 with the session
 * cookie, so they land on the dashboard signed in.
 */
export function AcceptInvitationPage(props: { onSignedIn: () => void }) {
  const token = new URLSearchParams(useSearch()).get('token');
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [invitation, setInvitation] = useState<{ accountName: string; invitedBy: string | null; email: string; role: string } | null>(null);
  const [unusable, setUnusable] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    void postAuth('/auth/invitation', { token }).then((answer) => {
      const b = answer.body;
      if (answer.ok && typeof b.account_name === 'string' && typeof b.email === 'string' && typeof b.role === 'string') {
        setInvitation({ accountName: b.account_name, invitedBy: typeof b.invited_by === 'string' ? b.invited_by : null, email: b.email, role: b.role });
      } else setUnusable(detailOf(answer));
    });
  }, [token]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { password, problem } = newPasswordOf(form);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const answer = await postAuth('/auth/accept-invitation', { token, password });
    setBusy(false);
    if (answer.ok) {
      navigate('/', { replace: true });
      props.onSignedIn();
    } else {
      setError(detailOf(answer));
    }
  };
  if (!token) {
    return (
      <Page title="Accept an invitation">
        <div className="card narrow">
          <p>This page opens from the link in your invitation e-mail; open that link, or ask the account owner to invite you again.</p>
          <p className="aside">
            <Link href="/">Sign in</Link>
          </p>
        </div>
      </Page>
    );
  }
  if (unusable) {
    return (
      <Page title="Accept an invitation">
        <div className="card narrow">
          <ErrorBanner message={unusable} />
          <p className="aside">
            <Link href="/">Sign in</Link>
          </p>
        </div>
      </Page>
    );
  }
  return (
    <Page title="Accept an invitation">
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        {invitation ? (
          <p data-testid="invitation-summary">
            {invitation.invitedBy ?? 'An owner'} invited you to join <strong>{invitation.accountName}</strong> as{' '}
            {invitation.role === 'owner' ? 'an owner' : 'a member'}. Choose the password you will sign in with as {invitation.email}.
          </p>
        ) : (
          <p>Reading the invitation…</p>
        )}
        <ErrorBanner message={error} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." />
        <Field label="Repeat the password" name="repeat" type="password" autoComplete="new-password" required minLength={10} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Joining…' : 'Join the account'}
        </button>
        <p className="aside">
          Already have a password here? <Link href="/">Sign in</Link>
        </p>
      </form>
    </Page>
  );
}
