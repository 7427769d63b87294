/**
 * A zone's query statistics for a time range: counts per step and the most asked names,
 * refreshed every 30 s while the page is visible.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { QuerySeries, TopNames } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

/** The ranges the Traffic tab offers, in seconds. */
export const RANGES = { '1h': 3600, '24h': 86400, '7d': 7 * 86400, '30d': 30 * 86400 } as const;
export type Range = keyof typeof RANGES;
export const REFRESH_MS = 30_000;

const fromOf = (range: Range) => new Date(Date.now() - RANGES[range] * 1000).toISOString();

export const statsQuery = (zone: string, range: Range) =>
  queryOptions({
    queryKey: domainKeys.stats(zone, range),
    // The server picks the step (at most 360 points): minutes for an hour, hours for a month.
    queryFn: ({ signal }) => request<QuerySeries>('GET', bff.stats(zone), { query: { from: fromOf(range) }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

export const topQuery = (zone: string, kind: 'names' | 'nxdomain', range: Range) =>
  queryOptions({
    queryKey: domainKeys.top(zone, kind, range),
    queryFn: ({ signal }) => request<TopNames>('GET', bff.statsTop(zone), { query: { kind, from: fromOf(range), limit: 10 }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

export const useStats = (zone: string, range: Range) => useQuery(statsQuery(zone, range));
export const useTopNames = (zone: string, kind: 'names' | 'nxdomain', range: Range) => useQuery(topQuery(zone, kind, range));
