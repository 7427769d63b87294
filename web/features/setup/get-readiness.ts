/** What this server still needs set before real use (administrators only; the server reads its own configuration). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Readiness } from '../../lib/api-types';
import { bff } from '../../lib/paths';

export const readinessKey = ['setup'] as const;

export const getReadiness = (signal?: AbortSignal) => request<Readiness>('GET', bff.setup, { signal });

export const readinessQuery = queryOptions({ queryKey: readinessKey, queryFn: ({ signal }) => getReadiness(signal), staleTime: 30_000 });

/** `enabled`: false for anyone but an administrator (the server answers them 403). */
export const useReadiness = (enabled = true) => useQuery({ ...readinessQuery, enabled });
