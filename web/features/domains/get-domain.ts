import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

export const getDomain = (name: string, signal?: AbortSignal) => request<Domain>('GET', bff.domain(name), { signal });

export const domainQuery = (name: string) => queryOptions({ queryKey: domainKeys.detail(name), queryFn: ({ signal }) => getDomain(name, signal) });

export const useDomain = (name: string) => useQuery(domainQuery(name));
