import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { ipKeys } from '../../lib/ip-keys';
import { domainKeys } from '../../lib/domain-keys';
import { deletedKeys } from './deleted-domains';

export const deleteDomain = (name: string) => request<Domain>('DELETE', bff.domain(name));

export function useDeleteDomain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: (_d, name) => {
      qc.removeQueries({ queryKey: domainKeys.detail(name) });
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      void qc.invalidateQueries({ queryKey: ipKeys.usage });
      void qc.invalidateQueries({ queryKey: deletedKeys.all });
    },
  });
}
