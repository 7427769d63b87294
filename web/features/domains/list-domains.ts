import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

export const DOMAINS_PER_PAGE = 25;

export const listDomains = (search: string, page: number, signal?: AbortSignal) => requestPage<Domain>(bff.domains, { search: search || undefined, page, per_page: DOMAINS_PER_PAGE }, signal);

export const domainsQuery = (search: string, page: number) =>
  queryOptions({ queryKey: domainKeys.list(search, page), queryFn: ({ signal }) => listDomains(search, page, signal), placeholderData: keepPreviousData });

export const useDomains = (search: string, page: number) => useQuery(domainsQuery(search, page));
