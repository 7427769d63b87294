import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain, DomainCreate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from './keys';

export const createDomain = (input: DomainCreate) => request<Domain>('POST', bff.domains, { body: input });

export function useCreateDomain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createDomain,
    onSuccess: (domain) => {
      qc.setQueryData(domainKeys.detail(domain.name), domain);
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
    },
  });
}
