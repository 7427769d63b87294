/** Taking a member out of a team (or leaving it): the last owner cannot leave (409). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { refreshAfterMemberChange } from './team-cache';

export const removeMember = (team: string, username: string) => request<void>('DELETE', bff.member(team, username));

export function useRemoveMember(team: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (username: string) => removeMember(team, username), onSuccess: () => refreshAfterMemberChange(qc) });
}
