import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function VerificationPage() {
  return <Page title="Domain verification"><p>This page is not built yet.</p></Page>;
}
