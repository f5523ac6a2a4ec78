import { useEffect } from 'react';

/**
 * Makes every `.table-wrap` that actually scrolls sideways reachable by keyboard (WCAG 2.1.1; axe's
 * scrollable-region-focusable): a tab stop named after its table, so a person without a pointer can
 * focus it and scroll with the arrow keys. A wrap that fits stays out of the tab order. Pages keep
 * writing a plain `<div className="table-wrap">`; this watches the page for them (new rows, a
 * narrower window) so no page has to remember.
 */
export function useScrollableRegions(): void {
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      for (const wrap of document.querySelectorAll<HTMLElement>('.table-wrap')) {
        const ours = wrap.dataset.scrollStop; // what this hook added, e.g. "tabindex role aria-label"
        // A wrap the page made a tab stop itself (tabIndex on the element) is the page's choice: left alone.
        if (ours === undefined && wrap.hasAttribute('tabindex')) continue;
        const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
        if (scrolls && ours === undefined) {
          const added = ['tabindex'];
          wrap.tabIndex = 0;
          // A group, not a region: a landmark named like the card around it would stand beside that
          // card's own region under the same name, for a screen reader and for tests finding either.
          if (!wrap.hasAttribute('role')) {
            wrap.setAttribute('role', 'group');
            added.push('role');
          }
          if (!wrap.hasAttribute('aria-label') && !wrap.hasAttribute('aria-labelledby')) {
            wrap.setAttribute('aria-label', `${tableName(wrap)} (table, scrolls sideways)`);
            added.push('aria-label');
          }
          wrap.dataset.scrollStop = added.join(' ');
        } else if (!scrolls && ours !== undefined) {
          // It fits now (a wider window, fewer rows): back to a plain box, out of the tab order.
          for (const name of ours.split(' ')) wrap.removeAttribute(name);
          delete wrap.dataset.scrollStop;
        }
      }
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener('resize', schedule);
    schedule();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
}

/** The table's caption, else the heading of the section or card it sits in, else the page's title. */
function tableName(wrap: HTMLElement): string {
  const caption = wrap.querySelector('caption')?.textContent;
  const heading = wrap.closest('section, .card, form')?.querySelector('h2, h3, h4')?.textContent ?? document.querySelector('h1')?.textContent;
  return (caption ?? heading ?? 'Table').trim().replace(/\s+/g, ' ');
}
