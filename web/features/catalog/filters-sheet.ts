import { useEffect, type KeyboardEvent, type RefObject } from 'react';

// The filter panel as a sheet (a modal dialog at ≤ 900 px): focus moves into it and stays there, the page behind
// does not scroll, Escape closes it, and so does widening the window past the sheet's breakpoint.

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/** Runs the sheet while `open`; returns the panel's key handler. */
export function useFiltersSheet(panel: RefObject<HTMLDivElement | null>, open: boolean, onClose: () => void) {
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>('.filters__close')?.focus();
    document.body.classList.add('sheet-open');
    const wide = window.matchMedia('(min-width: 901px)');
    const onWide = () => wide.matches && onClose();
    wide.addEventListener('change', onWide);
    return () => {
      document.body.classList.remove('sheet-open');
      wide.removeEventListener('change', onWide);
      previous?.focus();
    };
  }, [panel, open, onClose]);

  return function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!open) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    // Keep the focus inside the sheet.
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };
}
