/** Giving a member another role: owners only; the last owner cannot step down (409). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Member, TeamRole } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { refreshAfterMemberChange } from './team-cache';

export const changeMemberRole = (team: string, m: { username: string; role: TeamRole }) => request<Member>('PUT', bff.member(team, m.username), { body: { role: m.role } });

export function useChangeMemberRole(team: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (m: { username: string; role: TeamRole }) => changeMemberRole(team, m), onSuccess: () => refreshAfterMemberChange(qc) });
}
