/**
 * A zone's DNSSEC keys and the rollover in progress. While a rollover runs, or is about to start
 * (keys that differ from the policy), the view is asked again every 5 s, so the timeline moves on by itself. When the step changes, the zone's DS and DNSKEY
 * records (what the registrar should hold) are read again, and only they: taking the zone's newer
 * serial in the background would let the editor's next write overwrite changes nobody has seen.
 */
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { request } from '../../lib/api-client';
import type { DnssecView, Domain } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { bff } from '../../lib/paths';
import { rolloverPending } from './policy-keys';

export const getDnssec = (name: string, signal?: AbortSignal) => request<DnssecView>('GET', bff.dnssec(name), { signal });

export const ROLLOVER_POLL_MS = 5000;

export const dnssecQuery = (name: string) =>
  queryOptions({
    queryKey: domainKeys.dnssec(name),
    queryFn: ({ signal }) => getDnssec(name, signal),
    refetchInterval: (q) => (q.state.data && (q.state.data.rollover || rolloverPending(q.state.data)) ? ROLLOVER_POLL_MS : false),
  });

/** The zone's DS and DNSKEY records as the server has them now, put into the loaded zone. */
export async function refreshDsRecords(qc: QueryClient, name: string): Promise<void> {
  const fresh = await request<Domain>('GET', bff.domain(name));
  qc.setQueryData<Domain>(domainKeys.detail(name), (d) => (d ? { ...d, ds_records: fresh.ds_records, dnskey_records: fresh.dnskey_records } : d));
}

export function useDnssec(name: string, enabled = true) {
  const q = useQuery({ ...dnssecQuery(name), enabled });
  const qc = useQueryClient();
  const r = q.data?.rollover;
  const step = r ? `${r.kind}:${r.step}` : 'none';
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (!q.data) return;
    if (last.current !== null && last.current !== step) refreshDsRecords(qc, name).catch(() => undefined);
    last.current = step;
  }, [qc, name, step, q.data]);
  return q;
}
