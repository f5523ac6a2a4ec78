import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { detailOf, postAuth } from '../api';
import { ErrorBanner } from '../ui/status';
import { Page } from '../ui/page';

/**
 * The sign-up e-mail's page (?token=): one button opens the account (POST /auth/sign-up/confirm, 201
 * with the session cookie). A button rather than on load, so a mail scanner opening the link does not
 * use it up.
 */
export function ConfirmSignUpPage(props: { onSignedIn: () => void }) {
  const token = new URLSearchParams(useSearch()).get('token');
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const answer = await postAuth('/auth/sign-up/confirm', { token });
    setBusy(false);
    if (answer.ok) {
      navigate('/', { replace: true });
      props.onSignedIn();
    } else setError(detailOf(answer));
  };
  return (
    <Page title="Open your account">
      <div className="card narrow">
        {token ? (
          <>
            <p>Your address is confirmed by this link. Open the account to sign in with the password you chose.</p>
            <ErrorBanner message={error} />
            <button type="button" className="primary" disabled={busy} onClick={() => void confirm()}>
              {busy ? 'Opening…' : 'Open the account'}
            </button>
          </>
        ) : (
          <p>This page opens from the link in the sign-up e-mail; open that link, or sign up again.</p>
        )}
        <p className="aside">
          <Link href="/sign-up">Sign up again</Link> · <Link href="/">Sign in</Link>
        </p>
      </div>
    </Page>
  );
}
