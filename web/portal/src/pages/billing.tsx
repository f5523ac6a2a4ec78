import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function BillingPage() {
  return <Page title="Billing"><p>This page is not built yet.</p></Page>;
}
