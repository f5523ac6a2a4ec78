import { useEffect } from 'react';

/**
 * A deep link to a part of a page (`/settings#dns-connections`): once `ready` (the part is drawn),
 * the element the address's #fragment names is scrolled into view and takes the focus, so a screen
 * reader starts there too. A moment later than the page's own effects, which focus the page's h1.
 */
export function useHashTarget(ready: boolean): void {
  useEffect(() => {
    if (!ready || !window.location.hash) return;
    const id = decodeURIComponent(window.location.hash.slice(1));
    const frame = window.requestAnimationFrame(() => {
      const target = document.getElementById(id);
      if (!target) return;
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.scrollIntoView({ block: 'start' });
      target.focus({ preventScroll: true });
    });
    return () => window.cancelAnimationFrame(frame);
  }, [ready]);
}
