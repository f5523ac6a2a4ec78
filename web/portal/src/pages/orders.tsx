import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function OrdersPage() {
  return <Page title="Orders"><p>This page is not built yet.</p></Page>;
}
