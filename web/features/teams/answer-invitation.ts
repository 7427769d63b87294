/** Accepting an invitation (the user joins the team with the role it offered) or declining it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Team } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { refreshAfterMemberChange } from './team-cache';

export const acceptInvitation = (team: string) => request<Team>('POST', bff.acceptInvitation(team));
export const declineInvitation = (team: string) => request<void>('DELETE', bff.invitation(team));

/** Accepting makes the team's zones the user's to reach: teams and domains are asked for again. */
export function useAcceptInvitation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: acceptInvitation, onSuccess: () => refreshAfterMemberChange(qc) });
}

export function useDeclineInvitation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: declineInvitation, onSuccess: () => refreshAfterMemberChange(qc) });
}
