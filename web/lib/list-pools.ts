/**
 * A zone's health-checked pools (a bare array: a zone holds few). Refreshed every 5 s while shown, as
 * members go up and down by themselves. Shared: the Pools tab lists them, the records table marks the
 * sets they answer.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './api-client';
import type { Pool } from './api-types';
import { domainKeys } from './domain-keys';
import { bff } from './paths';

export const POOL_POLL_MS = 5000;

export const listPools = (zone: string, signal?: AbortSignal) => request<Pool[]>('GET', bff.pools(zone), { signal });

export const poolsQuery = (zone: string) => queryOptions({ queryKey: domainKeys.pools(zone), queryFn: ({ signal }) => listPools(zone, signal), refetchInterval: POOL_POLL_MS });

export const usePools = (zone: string) => useQuery(poolsQuery(zone));
