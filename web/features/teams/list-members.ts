/** A team's members with their roles. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Member } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const listMembers = (team: string, signal?: AbortSignal) => request<Member[]>('GET', bff.members(team), { signal });

export const membersQuery = (team: string) => queryOptions({ queryKey: teamKeys.members(team), queryFn: ({ signal }) => listMembers(team, signal) });

export const useMembers = (team: string) => useQuery(membersQuery(team));
