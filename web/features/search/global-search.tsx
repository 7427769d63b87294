/**
 * The search box of every page (focus it with `/`): an address or network searches contents,
 * anything else names; Enter opens the search page with it.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { searchUrl } from './search-url';
import './search.css';

export function GlobalSearch() {
  const [term, setTerm] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || (el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)))) return;
      e.preventDefault();
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <form
      role="search"
      className="global-search"
      onSubmit={(e) => {
        e.preventDefault();
        if (term.trim()) navigate(searchUrl(term));
      }}
    >
      <input
        ref={input}
        type="search"
        className="input input-small"
        aria-label="Search all zones"
        aria-keyshortcuts="/"
        placeholder="Search all zones  /"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        spellCheck={false}
      />
    </form>
  );
}
