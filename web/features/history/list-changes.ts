/** One page of a zone's change sets, newest first, optionally only from one source or user. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { ChangeSet } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { SOURCE_LABELS } from '../../lib/actor-words';

export const CHANGES_PER_PAGE = 20;

export interface ChangesFilter {
  source: string;
  username: string;
  page: number;
  perPage?: number;
}

/** The filters and page as a history URL holds them (`?source=api&user=alice&page=2`); an unknown source is ignored. */
export function filterOfParams(params: URLSearchParams): ChangesFilter {
  const source = params.get('source') ?? '';
  return { source: source in SOURCE_LABELS ? source : '', username: (params.get('user') ?? '').trim(), page: Math.max(1, Number(params.get('page')) || 1) };
}

export const listChanges = (domain: string, f: ChangesFilter, signal?: AbortSignal) =>
  requestPage<ChangeSet>(bff.changes(domain), { source: f.source || undefined, username: f.username || undefined, page: f.page, per_page: f.perPage ?? CHANGES_PER_PAGE }, signal);

export const changesQuery = (domain: string, f: ChangesFilter) =>
  queryOptions({
    queryKey: domainKeys.changes(domain, { source: f.source, username: f.username, page: f.page, perPage: f.perPage ?? CHANGES_PER_PAGE }),
    queryFn: ({ signal }) => listChanges(domain, f, signal),
    placeholderData: keepPreviousData,
  });

export const useChanges = (domain: string, f: ChangesFilter, enabled = true) => useQuery({ ...changesQuery(domain, f), enabled });
