/**
 * The narrow screen's menu as a disclosure: one button opens and closes it; Escape closes it and
 * gives focus back to the button; choosing a link (any new page) or tapping the page below closes
 * it, so the page chosen is what the user sees, not the menu over it.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';

export interface SiteMenu {
  open: boolean;
  toggle: () => void;
  button: RefObject<HTMLButtonElement | null>;
}

export function useSiteMenu(): SiteMenu {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // A new page (a link chosen, a search sent) closes the menu.
  useEffect(() => setOpen(false), [location.pathname, location.search]);
  // `/` focuses the search box, which sits in the closed menu while the Menu button shows: open it first.
  useEffect(() => {
    const onSlash = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || !button.current?.offsetParent) return;
      if (el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))) return;
      setOpen(true);
      requestAnimationFrame(() => document.querySelector<HTMLInputElement>('#site-menu input[type="search"]')?.focus());
    };
    window.addEventListener('keydown', onSlash);
    return () => window.removeEventListener('keydown', onSlash);
  }, []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    // A tap on the page below closes it too, as a phone's menus do.
    const onTap = (e: PointerEvent) => {
      if (!button.current?.closest('header')?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onTap);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onTap);
    };
  }, [open]);
  return { open, toggle: () => setOpen((o) => !o), button };
}
