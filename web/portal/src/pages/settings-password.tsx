import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../gql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice } from '../ui/status';
import { Field } from '../ui/field';
import { newPasswordOf } from '../ui/new-password';

/** Settings: the signed-in person's own password. */
const ChangePasswordDocument = graphql(`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) { changed otherSessionsEnded }
  }
`);

export function PasswordSection() {
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
