import type { ComponentType } from 'react';
import { DashboardPage } from './pages/dashboard';
import { OrdersPage } from './pages/orders';
import { MailboxesIndexPage } from './pages/mailboxes-index';
import { FoldersPage } from './pages/folders';
import { BillingPage } from './pages/billing';
import { AnalyticsPage } from './pages/analytics';
import { RequestsPage } from './pages/requests';
import { ReferralsPage } from './pages/referrals';
import { NewOrderPage } from './pages/new-order';
import { VerificationPage } from './pages/verification';
import { SettingsPage } from './pages/settings';

export interface PortalRoute {
  readonly path: string;
  readonly label: string;
  readonly component: ComponentType;
}

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
