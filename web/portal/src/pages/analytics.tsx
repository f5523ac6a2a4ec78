import { Page } from '../ui/page';

// Not built yet: this page is a placeholder in the portal's skeleton.
export function AnalyticsPage() {
  return <Page title="Analytics"><p>This page is not built yet.</p></Page>;
}
