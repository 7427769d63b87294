/**
 * Which records the table shows: the name and type filters live in the URL (reload and back keep
 * them), the sort in the page; typing in a filter stays responsive over 10,000 records because the
 * filtering follows a deferred copy of it.
 */
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { DnsRecord } from '../../lib/api-types';
import { useSetFilters } from '../../lib/page-param';
import { filterAndSort, type Sort, type SortKey } from './record-order';

export interface RecordFilters {
  name: string;
  type: string;
  set: (key: 'name' | 'type', value: string) => void;
}

export function useRecordFilters(): RecordFilters {
  const [params] = useSearchParams();
  const setFilters = useSetFilters();
  return {
    name: params.get('name') ?? '',
    type: params.get('type') ?? '',
    set: (key, value) => setFilters({ [key]: value }, { replace: true }),
  };
}

/** A click on a column sorts by it; a second click on the same column reverses the order. */
export function useRecordSort() {
  const [sort, setSort] = useState<Sort>({ key: 'name', dir: 1 });
  const onSort = useCallback((key: SortKey) => setSort((s) => ({ key, dir: s.key === key ? (s.dir === 1 ? -1 : 1) : 1 })), []);
  return { sort, onSort };
}

export function useShownRecords(records: readonly DnsRecord[] | undefined, filters: RecordFilters, sort: Sort): DnsRecord[] {
  const name = useDeferredValue(filters.name);
  const type = useDeferredValue(filters.type);
  return useMemo(() => filterAndSort(records ?? [], name, type, sort), [records, name, type, sort]);
}
