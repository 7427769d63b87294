/** Inviting a user (by username) into a team with a role: owners only. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Member, TeamRole } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { refreshAfterMemberChange } from './team-cache';

export const addMember = (team: string, m: { username: string; role: TeamRole }) => request<Member>('POST', bff.members(team), { body: m });

export function useAddMember(team: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (m: { username: string; role: TeamRole }) => addMember(team, m), onSuccess: () => refreshAfterMemberChange(qc) });
}
