import { useState } from 'react';
import { detailOf, postAuth } from '../api';
import { useViewer } from '../session';
import { ErrorBanner } from '../ui/status';
import { ConfirmButtons } from '../ui/confirm-buttons';

/**
 * Settings, security: sign out everywhere (POST /auth/sign-out-everywhere, docs/people.md). Every
 * session of the person ends, this one too, and every assistant they connected is disconnected;
 * the portal then shows the sign-in page. For a lost laptop, or a session the person does not know.
 */
export function SignOutEverywhereSection() {
  const { refresh } = useViewer();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const signOutEverywhere = async () => {
    setBusy(true);
    const answer = await postAuth('/auth/sign-out-everywhere', {});
    setBusy(false);
    setConfirming(false);
    if (answer.ok) refresh();
    else setProblem(detailOf(answer));
  };
  return (
    <section className="card settings-section" aria-labelledby="sign-out-everywhere-heading">
      <h2 id="sign-out-everywhere-heading">Sign out everywhere</h2>
      <p className="aside">
        Ends every session you have, in every browser, this one included, and disconnects every assistant you connected. Use it when a device is lost or a
        session is not yours; then sign in again here.
      </p>
      {problem ? <ErrorBanner message={problem} /> : null}
      {confirming ? (
        <div className="confirm" role="group" aria-label="Confirm signing out everywhere">
          <span>Sign out of every session and disconnect your assistants?</span>
          <ConfirmButtons
            confirmLabel="Yes, sign out everywhere"
            busy={busy}
            onConfirm={() => void signOutEverywhere()}
            onCancel={() => setConfirming(false)}
          />
        </div>
      ) : (
        <button
          type="button"
          className="danger"
          onClick={() => {
            setProblem(null);
            setConfirming(true);
          }}
        >
          Sign out everywhere
        </button>
      )}
    </section>
  );
}
