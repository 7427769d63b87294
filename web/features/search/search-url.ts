/** What the search box of every page searches for: an address or network searches contents, anything else names. */
import { routes } from '../../lib/paths';

const ADDRESS = /^[0-9a-fA-F.:]+(\/[0-9]{1,3})?$/;

/** The search page URL for a term typed in the box. */
export function searchUrl(term: string): string {
  const t = term.trim();
  const looksLikeAddress = ADDRESS.test(t) && (t.includes(':') || /^[0-9./]+$/.test(t));
  return `${routes.search}?${new URLSearchParams(looksLikeAddress ? { content: t } : { name: t }).toString()}`;
}
