/** Query keys of the users list (administrators only); `['users']` refreshes every page and search. */
export const userKeys = {
  all: ['users'] as const,
  list: (search: string, page: number, perPage: number) => ['users', 'list', { search, page, perPage }] as const,
};
