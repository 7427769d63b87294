/** Deleting a team: refused (409) while it owns zones, which must move or go first. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const deleteTeam = (name: string) => request<void>('DELETE', bff.team(name));

export function useDeleteTeam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTeam,
    onSuccess: (_, name) => {
      qc.removeQueries({ queryKey: teamKeys.team(name) });
      void qc.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
}
