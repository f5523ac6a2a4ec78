import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { detailOf, postAuth } from '../api';
import { newPasswordOf } from '../ui/new-password';
import { Field } from '../ui/field';
import { ErrorBanner, Notice } from '../ui/status';
import { Page } from '../ui/page';

/**
 * Password reset in two steps: without a token, ask for the e-mail (POST /auth/password-reset, which
 * answers 202 whether or not the address has an account); with the e-mailed ?token=, choose the new
 * password (POST /auth/password-reset/confirm), then sign in with it.
 */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  return token ? <ChooseNewPassword token={token} /> : <AskForLink />;
}

function AskForLink() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const answer = await postAuth('/auth/password-reset', { email: form.get('email') });
    setBusy(false);
    if (answer.ok) setSent(detailOf(answer));
    else setError(detailOf(answer));
  };
  return (
    <Page title="Reset your password">
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        {sent ? (
          <Notice tone="ok">{sent} Open the link in the e-mail to choose a new password.</Notice>
        ) : (
          <>
            <p>Type the e-mail address you sign in with; we send it a link to choose a new password.</p>
            <Field label="E-mail" name="email" type="email" autoComplete="username" required />
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send the reset link'}
            </button>
          </>
        )}
        <p className="aside">
          <Link href="/">Back to sign in</Link>
        </p>
      </form>
    </Page>
  );
}

function ChooseNewPassword(props: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { password, problem } = newPasswordOf(form);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const answer = await postAuth('/auth/password-reset/confirm', { token: props.token, password });
    setBusy(false);
    if (answer.ok) setDone(detailOf(answer));
    else setError(detailOf(answer));
  };
  if (done) {
    return (
      <Page title="Password changed">
        <div className="card narrow">
          <Notice tone="ok">{done}</Notice>
          <p>
            <Link href="/" className="button-link">
              Sign in
            </Link>
          </p>
        </div>
      </Page>
    );
  }
  return (
    <Page title="Choose a new password">
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters. Every session of yours is signed out."
        />
        <Field label="Repeat the new password" name="repeat" type="password" autoComplete="new-password" required minLength={10} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Set the new password'}
        </button>
        <p className="aside">
          Link expired? <Link href="/reset-password">Ask for a new one</Link>.
        </p>
      </form>
    </Page>
  );
}
