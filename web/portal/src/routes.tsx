import { lazy, type ComponentType } from 'react';

export interface PortalRoute {
  readonly path: string;
  readonly label: string;
  readonly component: ComponentType;
}

/*
 * Every signed-in page is its own chunk, fetched when it is first opened (app.tsx and layout.tsx wrap
 * them in <Suspense>): the first load is then the sign-in and sign-up pages, React and the GraphQL
 * client, within the 100 KB of gzipped JavaScript that `npm run bench` holds it to.
 */
export const DashboardPage = lazy(() => import('./pages/dashboard').then((m) => ({ default: m.DashboardPage })));
const OrdersPage = lazy(() => import('./pages/orders').then((m) => ({ default: m.OrdersPage })));
const MailboxesIndexPage = lazy(() => import('./pages/mailboxes-index').then((m) => ({ default: m.MailboxesIndexPage })));
const FoldersPage = lazy(() => import('./pages/folders').then((m) => ({ default: m.FoldersPage })));
const BillingPage = lazy(() => import('./pages/billing').then((m) => ({ default: m.BillingPage })));
const AnalyticsPage = lazy(() => import('./pages/analytics').then((m) => ({ default: m.AnalyticsPage })));
const RequestsPage = lazy(() => import('./pages/requests').then((m) => ({ default: m.RequestsPage })));
const ReferralsPage = lazy(() => import('./pages/referrals').then((m) => ({ default: m.ReferralsPage })));
const NewOrderPage = lazy(() => import('./pages/new-order').then((m) => ({ default: m.NewOrderPage })));
const VerificationPage = lazy(() => import('./pages/verification').then((m) => ({ default: m.VerificationPage })));
const SettingsPage = lazy(() => import('./pages/settings').then((m) => ({ default: m.SettingsPage })));
export const DomainSetupPage = lazy(() => import('./pages/domain-setup').then((m) => ({ default: m.DomainSetupPage })));
export const MailboxesPage = lazy(() => import('./pages/mailboxes').then((m) => ({ default: m.MailboxesPage })));

/** The signed-in pages, in the navigation's order. Paths are under /portal/. */
export const routes: readonly PortalRoute[] = [
  { path: '/', label: 'Dashboard', component: DashboardPage },
  { path: '/orders', label: 'Orders', component: OrdersPage },
  { path: '/mailboxes', label: 'Mailboxes', component: MailboxesIndexPage },
  { path: '/new-order', label: 'New order', component: NewOrderPage },
  { path: '/folders', label: 'Folders', component: FoldersPage },
  { path: '/analytics', label: 'Analytics', component: AnalyticsPage },
  { path: '/billing', label: 'Billing', component: BillingPage },
  { path: '/requests', label: 'Change requests', component: RequestsPage },
  { path: '/verification', label: 'Domain verification', component: VerificationPage },
  { path: '/referrals', label: 'Referrals', component: ReferralsPage },
  { path: '/settings', label: 'Settings', component: SettingsPage },
];
