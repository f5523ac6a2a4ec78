import { lazyPage, type LazyPage } from './ui/lazy-page';

export interface PortalRoute {
  readonly path: string;
  readonly label: string;
  readonly component: LazyPage<object>;
}

/*
 * Every signed-in page is its own chunk, fetched when it is first opened (app.tsx and layout.tsx wrap
 * them in <Suspense>): the first load is then the sign-in and sign-up pages, React and the GraphQL
 * client, within the 100 KB of gzipped JavaScript that `npm run bench` holds it to. The chunk of the
 * page a full load opens is fetched at once, beside the session check (preloadPageAt, main.tsx).
 */
export const DashboardPage = lazyPage(() => import('./pages/dashboard').then((m) => m.DashboardPage));
const OrdersPage = lazyPage(() => import('./pages/orders').then((m) => m.OrdersPage));
const MailboxesIndexPage = lazyPage(() => import('./pages/mailboxes-index').then((m) => m.MailboxesIndexPage));
const FoldersPage = lazyPage(() => import('./pages/folders').then((m) => m.FoldersPage));
const BillingPage = lazyPage(() => import('./pages/billing').then((m) => m.BillingPage));
const AnalyticsPage = lazyPage(() => import('./pages/analytics').then((m) => m.AnalyticsPage));
const RequestsPage = lazyPage(() => import('./pages/requests').then((m) => m.RequestsPage));
const ReferralsPage = lazyPage(() => import('./pages/referrals').then((m) => m.ReferralsPage));
const NewOrderPage = lazyPage(() => import('./pages/new-order').then((m) => m.NewOrderPage));
const VerificationPage = lazyPage(() => import('./pages/verification').then((m) => m.VerificationPage));
const SettingsPage = lazyPage(() => import('./pages/settings').then((m) => m.SettingsPage));
export const DomainSetupPage = lazyPage(() => import('./pages/domain-setup').then((m) => m.DomainSetupPage));
export const MailboxesPage = lazyPage(() => import('./pages/mailboxes').then((m) => m.MailboxesPage));

// The signed-out pages people reach from an e-mail's link are chunks of their own too (app.tsx);
// sign-in and sign-up, the first page of nearly every visit, are in the first load.
export const ResetPasswordPage = lazyPage(() => import('./pages/reset-password').then((m) => m.ResetPasswordPage));
export const AcceptInvitationPage = lazyPage(() => import('./pages/accept-invitation').then((m) => m.AcceptInvitationPage));
export const CardSavedPage = lazyPage(() => import('./pages/card-saved').then((m) => m.CardSavedPage));
export const ConfirmSignUpPage = lazyPage(() => import('./pages/confirm-sign-up').then((m) => m.ConfirmSignUpPage));

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

/** The signed-out pages an e-mail's link opens, by path (signed in, these paths show a sentence instead). */
const LINK_PAGES: Readonly<Record<string, { preload(this: void): void }>> = {
  '/reset-password': ResetPasswordPage,
  '/accept-invitation': AcceptInvitationPage,
  '/card-saved': CardSavedPage,
  '/confirm-sign-up': ConfirmSignUpPage,
};

/** The page a path under /portal opens, if it is a chunk of its own: routes.tsx's list, a domain's pages, an e-mail link's page. */
function pageAt(path: string): { preload(this: void): void } | undefined {
  const route = routes.find((r) => r.path === path);
  if (route) return route.component;
  if (/^\/domains\/[^/]+\/setup$/.test(path)) return DomainSetupPage;
  if (/^\/domains\/[^/]+\/mailboxes$/.test(path)) return MailboxesPage;
  return LINK_PAGES[path];
}

/**
 * Starts fetching the chunk of the page at this address (location.pathname, under /portal/), so
 * that it is there when the session answers (ui/lazy-page.tsx). A signed-out visitor fetches
 * one chunk they may not need yet; it is what they see next once signed in.
 */
export function preloadPageAt(pathname: string): void {
  const path = pathname.replace(/^\/portal(?=\/|$)/, '').replace(/(.)\/$/, '$1') || '/';
  pageAt(path)?.preload();
}
