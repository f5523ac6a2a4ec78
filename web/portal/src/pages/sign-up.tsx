import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { detailOf, postAuth } from '../api';
import { Field } from '../ui/field';
import { ErrorBanner } from '../ui/status';
import { Page } from '../ui/page';

/** POST /auth/sign-up: a new account with its owner, signed in at once. */
export function SignUpPage(props: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const answer = await postAuth('/auth/sign-up', { account_name: form.get('account_name'), email: form.get('email'), password: form.get('password') });
    setBusy(false);
    if (answer.ok) {
      // Signed in, the portal's pages replace the signed-out ones: land on the dashboard, not on /sign-up.
      navigate('/', { replace: true });
      props.onSignedIn();
    } else setError(detailOf(answer));
  };
  return (
    <Page title="Create an account">
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <Field label="Company or agency name" name="account_name" required maxLength={100} autoComplete="organization" />
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create the account'}
        </button>
        <p className="aside">
          Already have one? <Link href="/">Sign in</Link>
        </p>
      </form>
    </Page>
  );
}
