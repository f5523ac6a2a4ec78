import { lazy, useState, type ComponentType } from 'react';

/**
 * Each signed-in page is its own chunk, fetched when first shown (a visitor downloads the frame and
 * the page in front of them, not all ten). `preload` starts the fetch early: main.tsx asks for the
 * page the address names while the viewer query is in flight, so the split costs no round trip,
 * then for the others as soon as that one is in, so moving between pages never waits either. A page already fetched renders directly: through
 * React.lazy it would still suspend once, and React 19 holds a revealed boundary back ~300 ms.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType & { readonly preload: () => Promise<unknown> } {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () => (loading ??= load().then((module) => {
    loaded = pick(module);
    return { default: loaded };
  }));
  const Suspending = lazy(preload);
  function PageOnDemand() {
    // Chosen once per visit to the page, so a later render never swaps it (and its state) out.
    const [Shown] = useState<ComponentType>(() => loaded ?? Suspending);
    return <Shown />;
  }
  return Object.assign(PageOnDemand, { preload });
}

const DashboardPage = lazyPage(() => import('./pages/dashboard'), (m) => m.DashboardPage);
const OrdersPage = lazyPage(() => import('./pages/orders'), (m) => m.OrdersPage);
const FoldersPage = lazyPage(() => import('./pages/folders'), (m) => m.FoldersPage);
const BillingPage = lazyPage(() => import('./pages/billing'), (m) => m.BillingPage);
const AnalyticsPage = lazyPage(() => import('./pages/analytics'), (m) => m.AnalyticsPage);
const RequestsPage = lazyPage(() => import('./pages/requests'), (m) => m.RequestsPage);
const ReferralsPage = lazyPage(() => import('./pages/referrals'), (m) => m.ReferralsPage);
const NewOrderPage = lazyPage(() => import('./pages/new-order'), (m) => m.NewOrderPage);
const VerificationPage = lazyPage(() => import('./pages/verification'), (m) => m.VerificationPage);
const SettingsPage = lazyPage(() => import('./pages/settings'), (m) => m.SettingsPage);

export interface PortalRoute {
  readonly path: string;
  readonly label: string;
  readonly component: ComponentType & { readonly preload?: () => Promise<unknown> };
}

/** The signed-in pages, in the navigation's order. Paths are under /portal/. */
export const routes: readonly PortalRoute[] = [
  { path: '/', label: 'Dashboard', component: DashboardPage },
  { path: '/orders', label: 'Orders', component: OrdersPage },
  { path: '/new-order', label: 'New order', component: NewOrderPage },
  { path: '/folders', label: 'Folders', component: FoldersPage },
  { path: '/analytics', label: 'Analytics', component: AnalyticsPage },
  { path: '/billing', label: 'Billing', component: BillingPage },
  { path: '/requests', label: 'Change requests', component: RequestsPage },
  { path: '/verification', label: 'Domain verification', component: VerificationPage },
  { path: '/referrals', label: 'Referrals', component: ReferralsPage },
  { path: '/settings', label: 'Settings', component: SettingsPage },
];

/** Starts fetching the page at `pathname` (the app's own path, under /portal/), if it is one of these. */
export async function preloadPage(pathname: string): Promise<void> {
  await routes.find((route) => route.path === pathname)?.component.preload?.();
}

/** Fetches every other page in the background, so a later navigation shows its page at once. */
export function preloadAllPages(): void {
  for (const route of routes) void route.component.preload?.();
}
