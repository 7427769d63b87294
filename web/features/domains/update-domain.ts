/** SOA timers and DNSSEC of a zone; the DNSSEC switch shows its new state at once and rolls back on error. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain, DomainUpdate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from './keys';

export const updateDomain = (name: string, patch: DomainUpdate) => request<Domain>('PUT', bff.domain(name), { body: patch });

export function useUpdateDomain(name: string, opts: { optimistic?: boolean } = {}) {
  const qc = useQueryClient();
  const key = domainKeys.detail(name);
  return useMutation({
    mutationFn: (patch: DomainUpdate) => updateDomain(name, patch),
    onMutate: async (patch) => {
      if (!opts.optimistic) return undefined;
      await qc.cancelQueries({ queryKey: key, exact: true });
      const before = qc.getQueryData<Domain>(key);
      if (before) qc.setQueryData<Domain>(key, { ...before, ...patch });
      return { before };
    },
    onError: (_e, _patch, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before);
    },
    onSuccess: (domain) => {
      qc.setQueryData(key, domain);
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
    },
  });
}
