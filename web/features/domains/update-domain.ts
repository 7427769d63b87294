/**
 * SOA timers and DNSSEC of a zone, sent with the serial the editor loaded as If-Match (a zone
 * changed elsewhere meanwhile answers 412 and keeps its values). The DNSSEC switch shows its
 * new state at once and rolls back on any error.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { Domain, DomainUpdate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { useZoneConflict } from '../../ui/zone-conflict';
import { guardedWrite, zoneScope } from '../../lib/zone-serial';

export const updateDomain = (name: string, patch: DomainUpdate, ifMatch?: number) => requestWrite<Domain>('PUT', bff.domain(name), { body: patch, ifMatch });

export function useUpdateDomain(name: string, opts: { optimistic?: boolean } = {}) {
  const qc = useQueryClient();
  const key = domainKeys.detail(name);
  const { report } = useZoneConflict();
  return useMutation({
    scope: zoneScope(name),
    mutationFn: (patch: DomainUpdate) => guardedWrite(qc, name, (ifMatch) => updateDomain(name, patch, ifMatch)),
    onMutate: async (patch) => {
      if (!opts.optimistic) return undefined;
      await qc.cancelQueries({ queryKey: key, exact: true });
      const before = qc.getQueryData<Domain>(key);
      if (before) qc.setQueryData<Domain>(key, { ...before, ...patch, dnssec_policy: { ...before.dnssec_policy, ...patch.dnssec_policy } });
      return { before };
    },
    onError: (e, patch, ctx) => {
      // Only the fields this write changed: the serial may have moved on meanwhile.
      const before = ctx?.before;
      if (before) qc.setQueryData<Domain>(key, (d) => (d ? { ...d, ...Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof Domain]])) } : d));
      report(e);
    },
    onSuccess: (domain) => {
      qc.setQueryData(key, domain);
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      void qc.invalidateQueries({ queryKey: domainKeys.history(name) });
    },
  });
}
