import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { detailOf, postAuth } from '../api';
import { Field } from '../ui/field';
import { ErrorBanner } from '../ui/status';
import { Page } from '../ui/page';

/**
 * Where to go after signing in, when the MCP sign-in's consent page sent the person here
 * (`?return_to=/oauth/interaction/<uid>`): only that server page, never another site.
 */
function consentToReturnTo(): string | null {
  const returnTo = new URLSearchParams(window.location.search).get('return_to');
  return returnTo !== null && /^\/oauth\/interaction\/[A-Za-z0-9_-]{1,128}$/.test(returnTo) ? returnTo : null;
}

/** POST /auth/sign-in; on success the session cookie is set and the portal asks who is signed in. */
export function SignInPage(props: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const answer = await postAuth('/auth/sign-in', { email: form.get('email'), password: form.get('password') });
    setBusy(false);
    const returnTo = consentToReturnTo();
    if (answer.ok && returnTo) window.location.assign(returnTo);
    else if (answer.ok) props.onSignedIn();
    else setError(detailOf(answer));
  };
  return (
    <Page title="Sign in">
      {consentToReturnTo() ? <p className="aside">Sign in to answer an assistant asking to use your account; you will be taken back to its request.</p> : null}
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <Field label="E-mail" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="aside">
          <Link href="/reset-password">Forgot your password?</Link> · <Link href="/sign-up">Create an account</Link>
        </p>
      </form>
    </Page>
  );
}
