import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { routes } from './routes';
import { useViewer } from './session';
import { postAuth } from './api';
import { useScrollableRegions } from './ui/scrollable-regions';

/**
 * The signed-in frame: a skip link, the navigation (a menu button on a phone), who is signed in, and
 * sign-out. The current page's link carries aria-current.
 */
export function Layout(props: { children: ReactNode }) {
  const { viewer, refresh } = useViewer();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useScrollableRegions();
  const signOut = async () => {
    await postAuth('/auth/sign-out', {});
    refresh();
  };
  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Inbox portal</span>
        <span className="account" title={viewer.email}>
          {viewer.accountName}
        </span>
        <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
      </header>
      <nav id="main-nav" aria-label="Portal" className={menuOpen ? 'nav open' : 'nav'}>
        <ul>
          {routes.map((route) => (
            <li key={route.path}>
              {/* The page's chunk is fetched when the pointer or the focus reaches its link (ui/lazy-page.tsx):
                  arrived before the click, the page opens without React's 300 ms "Loading…" fallback. */}
              <Link
                href={route.path}
                aria-current={location === route.path ? 'page' : undefined}
                onClick={() => setMenuOpen(false)}
                onPointerEnter={route.component.preload}
                onPointerDown={route.component.preload}
                onFocus={route.component.preload}
              >
                {route.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="nav-foot">
          <span className="who">
            {viewer.email} ({viewer.role})
          </span>
          <button type="button" className="link-button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </nav>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
