/**
 * A webhook's delivery log, newest first, and what can be done with it: deliver one again, or send
 * a test (`ping`) event. The log is asked again every 2 s while a delivery is pending (its attempts
 * and retries show as they happen) and every 10 s otherwise.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { WebhookDelivery } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { webhookKeys } from './keys';

export const listDeliveries = (id: number, signal?: AbortSignal) => request<WebhookDelivery[]>('GET', bff.webhookDeliveries(id), { signal });

export const deliveriesQuery = (id: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ signal }) => listDeliveries(id, signal),
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'pending') ? 2000 : 10_000),
  });

export const useDeliveries = (id: number) => useQuery(deliveriesQuery(id));

/** Both answer 202: the delivery is queued, and the log is read again at once to show it. */
function useQueued<T>(id: number, send: (arg: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => void qc.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }) });
}

export const useRedeliver = (id: number) => useQueued(id, (delivery: number) => request<unknown>('POST', bff.webhookRedeliver(id, delivery)));
export const usePing = (id: number) => useQueued(id, () => request<unknown>('POST', bff.webhookPing(id)));
