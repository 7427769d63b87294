/**
 * Query keys of teams. `['teams']` refreshes everything about them; lists live under
 * `['teams', 'list']`, every team at once (the owner choice of a new zone) at
 * `['teams', 'every']`, one team's members at `['teams', 'team', name, 'members']` (its pending
 * invitations beside them), the user's own invitations at `['teams', 'invitations']`, so no team
 * name can collide with a list's key.
 */
export const teamKeys = {
  all: ['teams'] as const,
  list: (page: number, perPage: number, all: boolean) => ['teams', 'list', { page, perPage, all }] as const,
  every: ['teams', 'every'] as const,
  team: (name: string) => ['teams', 'team', name] as const,
  members: (name: string) => ['teams', 'team', name, 'members'] as const,
  invitations: (name: string) => ['teams', 'team', name, 'invitations'] as const,
  /** The user's own invitations into teams. */
  mine: ['teams', 'invitations'] as const,
};
