/** The current page of a paginated list, kept in the URL (`?page=`), so reload and back keep it. */
import { useSearchParams } from 'react-router-dom';

export function usePageParam() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setPage = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    setParams(next);
  };
  return { page, setPage, params, setParams };
}
