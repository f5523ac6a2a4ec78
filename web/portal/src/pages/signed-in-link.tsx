import { useViewer } from '../session';
import { postAuth } from '../api';
import { Page } from '../ui/page';

/**
 * A reset or invitation link opened while someone is signed in: the link is for signing in as its
 * addressee, so say who is signed in and offer to sign out first (the link keeps working: its
 * token is in the address, which signing out keeps).
 */
export function SignedInLinkPage(props: { what: 'a password reset' | 'an invitation' | 'a sign-up confirmation' }) {
  const { viewer, refresh } = useViewer();
  const signOut = async () => {
    await postAuth('/auth/sign-out', {});
    refresh();
  };
  return (
    <Page
      title={props.what === 'an invitation' ? 'Accept an invitation' : props.what === 'a sign-up confirmation' ? 'Open your account' : 'Reset your password'}
    >
      <div className="card narrow">
        <p>
          This is a link for {props.what}, and you are signed in as <strong>{viewer.email}</strong>. Sign out to use it.
        </p>
        <button type="button" className="primary" onClick={() => void signOut()}>
          Sign out and continue
        </button>
      </div>
    </Page>
  );
}
