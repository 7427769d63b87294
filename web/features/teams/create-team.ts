/** A new team: its creator becomes its first owner. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Team } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const createTeam = (name: string) => request<Team>('POST', bff.teams, { body: { name } });

export function useCreateTeam() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createTeam, onSuccess: () => void qc.invalidateQueries({ queryKey: teamKeys.all }) });
}
