/** Query keys of the user's API tokens; `['tokens']` invalidates every page at once. */
export const tokenKeys = {
  all: ['tokens'] as const,
  page: (page: number, perPage: number) => ['tokens', 'page', { page, perPage }] as const,
};
