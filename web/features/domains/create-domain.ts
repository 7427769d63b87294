import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain, DomainCreate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';
import { domainKeys } from '../../lib/domain-keys';

/** `team`: the team that will own the zone (one where the user is an owner or admin); absent, the user's own. */
export const createDomain = (input: DomainCreate) => request<Domain>('POST', bff.domains, { body: input });

export function useCreateDomain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createDomain,
    onSuccess: (domain) => {
      qc.setQueryData(domainKeys.detail(domain.name), domain);
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      // A team's list shows how many zones it owns.
      if (domain.team) void qc.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
}
