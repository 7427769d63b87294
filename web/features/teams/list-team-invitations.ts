/** A team's pending invitations, for its owners and admins. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { TeamInvitation } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const listTeamInvitations = (team: string, signal?: AbortSignal) => request<TeamInvitation[]>('GET', bff.teamInvitations(team), { signal });

export const teamInvitationsQuery = (team: string) => queryOptions({ queryKey: teamKeys.invitations(team), queryFn: ({ signal }) => listTeamInvitations(team, signal) });

/** `enabled` false for a member who may not see them (editors and viewers). */
export const useTeamInvitations = (team: string, enabled: boolean) => useQuery({ ...teamInvitationsQuery(team), enabled });
