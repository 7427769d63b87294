/** The search across every zone the user may read, and bulk changes of what it finds. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestPage } from '../../lib/api-client';
import type { BatchResult, BulkChange, FoundRecord } from '../../lib/api-types';
import { bff } from '../../lib/paths';

export interface SearchFilter {
  name: string;
  type: string;
  content: string;
  match: 'exact' | 'prefix' | 'contains';
  /** `all`: every account's zones (an administrator's search; the server refuses it to anyone else). */
  accounts?: '' | 'all';
}

export const searchKeys = { all: ['search'] as const, page: (f: SearchFilter, page: number) => ['search', f, page] as const };

export const isEmptySearch = (f: SearchFilter) => !f.name.trim() && !f.type.trim() && !f.content.trim();

export const searchQuery = (f: SearchFilter, page: number) =>
  queryOptions({
    queryKey: searchKeys.page(f, page),
    queryFn: ({ signal }) =>
      requestPage<FoundRecord>(
        bff.search,
        { name: f.name || undefined, type: f.type || undefined, content: f.content || undefined, match: f.match, accounts: f.accounts || undefined, page, per_page: 100 },
        signal,
      ),
    enabled: !isEmptySearch(f),
    placeholderData: keepPreviousData,
  });

export const useSearch = (f: SearchFilter, page: number) => useQuery(searchQuery(f, page));

export function useBulkChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ dryRun, ...body }: BulkChange & { dryRun: boolean }) => request<BatchResult>('POST', bff.bulk, { body, query: { dry_run: dryRun ? 'true' : undefined } }),
    onSuccess: (_r, input) => {
      if (!input.dryRun) void qc.invalidateQueries();
    },
  });
}

export function useRevertBatch() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (batch: string) => request<BatchResult>('POST', bff.batchRevert(batch)), onSuccess: () => void qc.invalidateQueries() });
}
