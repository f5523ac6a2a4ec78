import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { detailOf, postAuth } from '../api';
import { newPasswordOf } from '../ui/new-password';
import { Field } from '../ui/field';
import { ErrorBanner } from '../ui/status';
import { Page } from '../ui/page';

/**
 * The e-mailed invitation's page (?token=): the invited person chooses a password; POST
 * /auth/accept-invitation makes them a person of the account and answers 201 with the session
 * cookie, so they land on the dashboard signed in.
 */
export function AcceptInvitationPage(props: { onSignedIn: () => void }) {
  const token = new URLSearchParams(useSearch()).get('token');
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
  return (
    <Page title="Accept an invitation">
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        <p>You are invited to an account on this portal. Choose the password you will sign in with; your e-mail is the one the invitation was sent to.</p>
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
