/** Query parameters of list pages (`?page=`, filters), kept in the URL so that reload and back keep them. */
import { useCallback } from 'react';
import { useSearchParams, type NavigateOptions } from 'react-router-dom';

/**
 * Changes query parameters of the URL as it is when called, not as the last render saw it: two
 * changes made before the page renders again (a filter, then another, in quick succession) both
 * land, where building on the render's `params` would put the first one back.
 */
export function useUpdateParams() {
  const [, setParams] = useSearchParams();
  return useCallback(
    (change: (next: URLSearchParams) => void, options?: NavigateOptions) => {
      const next = new URLSearchParams(window.location.search);
      change(next);
      setParams(next, options);
    },
    [setParams],
  );
}

export function usePageParam() {
  const [params] = useSearchParams();
  const update = useUpdateParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setPage = (p: number) => update((next) => next.set('page', String(p)));
  return { page, setPage, params, update };
}
