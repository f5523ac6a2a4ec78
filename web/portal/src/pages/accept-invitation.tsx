import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function AcceptInvitationPage(_props: { onSignedIn: () => void }) {
  return <Page title="Accept an invitation"><p>This page is not built yet.</p></Page>;
}
