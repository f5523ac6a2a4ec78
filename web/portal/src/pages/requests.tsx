import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function RequestsPage() {
  return <Page title="Change requests"><p>This page is not built yet.</p></Page>;
}
