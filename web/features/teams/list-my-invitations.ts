/** The user's pending invitations into teams (the Teams page answers them; the main navigation counts them). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Invitation } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { teamKeys } from '../../lib/team-keys';

export const listMyInvitations = (signal?: AbortSignal) => request<Invitation[]>('GET', bff.invitations, { signal });

/** Asked again every minute and when the window regains focus, so an invitation made meanwhile shows without a reload. */
export const myInvitationsQuery = queryOptions({ queryKey: teamKeys.mine, queryFn: ({ signal }) => listMyInvitations(signal), refetchInterval: 60_000 });

export const useMyInvitations = () => useQuery(myInvitationsQuery);
