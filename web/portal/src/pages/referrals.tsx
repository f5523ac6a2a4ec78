import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function ReferralsPage() {
  return <Page title="Referrals"><p>This page is not built yet.</p></Page>;
}
