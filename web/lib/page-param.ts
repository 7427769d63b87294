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

/** A filter's value; empty or null takes the filter out of the URL. */
export type FilterValue = string | number | null;

/**
 * Sets list filters in the URL (as `useUpdateParams`): an empty or null value removes one, and
 * the list goes back to its first page unless `page` is among the changes.
 */
export function useSetFilters() {
  const update = useUpdateParams();
  return useCallback(
    (changes: Record<string, FilterValue>, options?: NavigateOptions) =>
      update((next) => {
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, String(v));
        }
        if (!('page' in changes)) next.delete('page');
      }, options),
    [update],
  );
}

export function usePageParam() {
  const [params] = useSearchParams();
  const setFilters = useSetFilters();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setPage = (p: number) => setFilters({ page: p });
  return { page, setPage, params, setFilters };
}
