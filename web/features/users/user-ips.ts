/**
 * A user's registered IP addresses and ranges, for an administrator: listed, added, removed. The
 * server checks each address as the CLI does (a bad one names the `address` field).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestAll } from '../../lib/api-client';
import type { Ip } from '../../lib/api-types';
import { ipKeys } from '../../lib/ip-keys';
import { bff } from '../../lib/paths';
import { userKeys } from './keys';

const rangesKey = (username: string) => [...userKeys.all, 'ips', username] as const;

export const userIpsQuery = (username: string) => queryOptions({ queryKey: rangesKey(username), queryFn: ({ signal }) => requestAll<Ip>(bff.userIps(username), {}, signal) });

export const useUserIps = (username: string | undefined) => useQuery({ ...userIpsQuery(username ?? ''), enabled: username !== undefined });

/** Adds or removes one of the user's ranges; the lists shown refresh (the administrator's own too, when it is theirs). */
export function useChangeUserIps(username: string) {
  const qc = useQueryClient();
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: rangesKey(username) }), qc.invalidateQueries({ queryKey: ipKeys.all })]);
  const add = useMutation({
    mutationFn: (body: { address: string; active: boolean }) => request<Ip>('POST', bff.userIps(username), { body }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: number) => request<void>('DELETE', bff.userIp(username, id)), onSuccess: refresh });
  return { add, remove };
}
