/** Inviting a user (by username) into a team with a role: owners only. The user joins when they accept. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { TeamInvitation, TeamRole } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const inviteMember = (team: string, m: { username: string; role: TeamRole }) => request<TeamInvitation>('POST', bff.members(team), { body: m });

export function useInviteMember(team: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (m: { username: string; role: TeamRole }) => inviteMember(team, m), onSuccess: () => void qc.invalidateQueries({ queryKey: teamKeys.invitations(team) }) });
}
