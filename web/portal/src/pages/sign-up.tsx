import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { detailOf, postAuth } from '../api';
import { Field } from '../ui/field';
import { ErrorBanner, Notice } from '../ui/status';
import { Page } from '../ui/page';

/**
 * POST /auth/sign-up: the service answers "check your e-mail" whatever the address, and the mailed
 * link (the confirm-sign-up page) opens the account. A referral link (/portal/sign-up?ref=CODE) fills
 * the referral code, which goes with the sign-up; the person sees it and may clear it.
 */
export function SignUpPage() {
  const referralCode = new URLSearchParams(useSearch()).get('ref')?.trim() ?? '';
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const answer = await postAuth('/auth/sign-up', {
      account_name: form.get('account_name'),
      email: form.get('email'),
      password: form.get('password'),
      referral_code: form.get('referral_code'),
    });
    setBusy(false);
    if (answer.ok) setSent(detailOf(answer));
    else setError(detailOf(answer));
  };
  if (sent) {
    return (
      <Page title="Check your e-mail">
        <div className="card narrow">
          <Notice tone="ok">{sent}</Notice>
          <p className="aside">
            Nothing came? Look in the spam folder, or <Link href="/sign-up">try again</Link>. Already have an account? <Link href="/">Sign in</Link>
          </p>
        </div>
      </Page>
    );
  }
  return (
    <Page title="Create an account">
      <form className="card narrow" onSubmit={(event) => void submit(event)}>
        <ErrorBanner message={error} />
        <Field label="Company or agency name" name="account_name" required maxLength={100} autoComplete="organization" />
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." />
        <Field
          label="Referral code (optional)"
          name="referral_code"
          defaultValue={referralCode}
          maxLength={40}
          autoComplete="off"
          hint={
            referralCode
              ? 'From the referral link you followed: the account that shared it is thanked when you pay your first invoice. Clear it to sign up without one.'
              : 'If someone referred you, their code; leave it empty otherwise.'
          }
        />
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
