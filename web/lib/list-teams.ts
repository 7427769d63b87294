/**
 * The user's teams a page at a time (`all`: every team, for an administrator), and all of the
 * user's teams at once for choosers.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestAll, requestPage } from './api-client';
import type { Team } from './api-types';
import { bff } from './paths';
import { teamKeys } from './team-keys';

export const TEAMS_PER_PAGE = 50;

export const listTeams = (page: number, all: boolean, signal?: AbortSignal) => requestPage<Team>(bff.teams, { page, per_page: TEAMS_PER_PAGE, all: all ? 'true' : undefined }, signal);

export const teamsQuery = (page: number, all = false) =>
  queryOptions({ queryKey: teamKeys.list(page, TEAMS_PER_PAGE, all), queryFn: ({ signal }) => listTeams(page, all, signal), placeholderData: keepPreviousData });

export const useTeams = (page: number, all = false) => useQuery(teamsQuery(page, all));

export const everyTeamQuery = queryOptions({ queryKey: teamKeys.every, queryFn: ({ signal }) => requestAll<Team>(bff.teams, {}, signal) });

/** Every team of the user; `enabled` false until a view needs them. */
export const useEveryTeam = (enabled = true) => useQuery({ ...everyTeamQuery, enabled });
