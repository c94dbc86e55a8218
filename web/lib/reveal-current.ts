import { useEffect, type RefObject } from 'react';

/**
 * Keeps the current entry ([aria-current="page"]) of a horizontally scrolling strip in sight. On phones the side
 * menus and the category list become one scrollable row, and the page's own entry may otherwise start out of view.
 * Only the strip scrolls (to centre the entry), never the window; `key` says when to look again (the address).
 */
export function useRevealCurrent(strip: RefObject<HTMLElement | null>, key: unknown) {
  useEffect(() => {
    const el = strip.current;
    const current = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!el || !current || el.scrollWidth <= el.clientWidth) return;
    const box = el.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.left >= box.left && item.right <= box.right) return;
    el.scrollBy({ left: item.left - box.left - (box.width - item.width) / 2 });
  }, [strip, key]);
}
