/**
 * Creating, changing and deleting a pool. Each is a change set of the zone (in its History, with a
 * new serial, and the pool's answer written as A/AAAA records), so the zone's own data is read again
 * afterwards: the editor then writes against the serial this change left.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Pool, PoolCreate, PoolUpdate } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { bff } from '../../lib/paths';

/** The zone, its pools, records and history all live under the zone's key. */
function refreshZone(qc: QueryClient, zone: string): void {
  void qc.invalidateQueries({ queryKey: domainKeys.detail(zone) });
  void qc.invalidateQueries({ queryKey: domainKeys.lists });
}

export const createPool = (zone: string, body: PoolCreate) => request<Pool>('POST', bff.pools(zone), { body });
export const updatePool = (zone: string, id: number, body: PoolUpdate) => request<Pool>('PUT', bff.pool(zone, id), { body });
export const deletePool = (zone: string, id: number) => request<void>('DELETE', bff.pool(zone, id));

/** Creates (no `id`) or changes (`id`) a pool; the answer replaces the pool in the cached list. */
export function useSavePool(zone: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: PoolCreate }) => {
      if (id === undefined) return createPool(zone, body);
      const { name: _name, type: _type, ...update } = body;
      return updatePool(zone, id, update);
    },
    onSuccess: (pool) => {
      qc.setQueryData<Pool[]>(domainKeys.pools(zone), (list) => (list ? [...list.filter((p) => p.id !== pool.id), pool].sort((a, b) => a.name.localeCompare(b.name)) : list));
      qc.setQueryData(domainKeys.pool(zone, String(pool.id)), pool);
      refreshZone(qc, zone);
    },
  });
}

export function useDeletePool(zone: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deletePool(zone, id),
    onSuccess: (_void, id) => {
      qc.setQueryData<Pool[]>(domainKeys.pools(zone), (list) => list?.filter((p) => p.id !== id));
      refreshZone(qc, zone);
    },
  });
}
