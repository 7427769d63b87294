/** Withdrawing a pending invitation: owners only. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const cancelInvitation = (team: string, username: string) => request<void>('DELETE', bff.teamInvitation(team, username));

export function useCancelInvitation(team: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (username: string) => cancelInvitation(team, username), onSuccess: () => void qc.invalidateQueries({ queryKey: teamKeys.invitations(team) }) });
}
